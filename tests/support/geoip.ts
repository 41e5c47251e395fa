import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One network of a test GeoIP database: a CIDR, its country and (optionally) its city. */
export interface GeoNetwork {
  network: string;
  country: string;
  city?: string;
}

/**
 * Writes a GeoIP2-City-format database holding `networks` with MaxMind's reference writer
 * (Perl's MaxMind::DB::Writer, Debian's libmaxmind-db-writer-perl) and answers its path: the
 * app reads it as it reads GeoLite2 City. The writer leaves reserved ranges (documentation,
 * private) out of a database, so tests use public addresses.
 */
export function writeGeoDatabase(networks: GeoNetwork[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'geoip-'));
  const file = path.join(dir, 'test-city.mmdb');
  const script = `
use strict; use warnings;
use JSON::PP; use MaxMind::DB::Writer::Tree;
my ($out, $json) = @ARGV;
my %types = (city => 'map', country => 'map', names => 'map', en => 'utf8_string',
  iso_code => 'utf8_string');
my $tree = MaxMind::DB::Writer::Tree->new(ip_version => 6, record_size => 24,
  database_type => 'GeoIP2-City', languages => ['en'], description => { en => 'test' },
  alias_ipv6_to_ipv4 => 1, map_key_type_callback => sub { $types{$_[0]} });
for my $n (@{ decode_json($json) }) {
  my %record = (country => { iso_code => $n->{country} });
  $record{city} = { names => { en => $n->{city} } } if defined $n->{city};
  $tree->insert_network($n->{network}, \\%record);
}
open my $fh, '>:raw', $out or die "cannot write $out";
$tree->write_tree($fh);
close $fh;`;
  execFileSync('perl', ['-e', script, file, JSON.stringify(networks)], { stdio: 'pipe' });
  return file;
}
