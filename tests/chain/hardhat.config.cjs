// The local development chain the watcher's tests run against (`hardhat node`): Hardhat's own
// network, mining a block per transaction, with blocks also mined on demand (`evm_mine`,
// `hardhat_mine`) and the chain rolled back by `evm_snapshot` / `evm_revert` for reorganisations.
module.exports = {
  solidity: '0.8.30',
  networks: { hardhat: { chainId: 31337, mining: { auto: true } } },
};
