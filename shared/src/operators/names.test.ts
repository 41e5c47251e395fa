import { describe, expect, it } from 'vitest';
import {
  isReservedOperatorName,
  newOperatorName,
  operatorNameSkeleton,
  reservedOperatorNames,
} from './names';

const parse = (name: string) => newOperatorName.safeParse(name);

describe('operator names (issue 33)', () => {
  it('are lower-case ASCII slugs, 3 to 32 characters, a letter first', () => {
    for (const ok of ['alice', 'bob_review', 'carol-2', 'abc', `a${'b'.repeat(31)}`])
      expect(parse(ok).data, ok).toBe(ok);
    // Upper-case ASCII is taken and kept lower-case; spaces around are trimmed.
    expect(parse('  Alice_Ops ').data).toBe('alice_ops');
    for (const bad of [
      'ab',
      `a${'b'.repeat(32)}`,
      '1alice',
      '_alice',
      'bob.review',
      'al ice',
      'ѕervice', // Cyrillic dze
      't_аdmin', // Cyrillic a
      'ａlice', // full-width a
      '\u212Aelvin', // the Kelvin sign, which lower-cases to k
      'alice\u200b',
      'élodie',
    ])
      expect(parse(bad).success, bad).toBe(false);
  });

  it('refuses the reserved names, and names that only look like them', () => {
    for (const name of reservedOperatorNames) {
      expect(isReservedOperatorName(name), name).toBe(true);
      expect(parse(name).success, name).toBe(false);
    }
    for (const lookAlike of [
      'Service',
      'serv1ce',
      'servlce',
      'adrnin',
      'r00t',
      'rev1ewer',
      'supp0rt',
    ])
      expect(parse(lookAlike).success, lookAlike).toBe(false);
    // A role's name inside a longer one is a name like any other.
    expect(parse('admin_alice').data).toBe('admin_alice');
    expect(parse('t_admin').data).toBe('t_admin');
  });

  it('maps look-alike characters and pairs to one skeleton', () => {
    const same = [
      ['rn', 'm'],
      ['modern', 'modem'],
      ['b0b', 'bob'],
      ['l1i', 'lll'],
      ['al1ce', 'alice'],
      ['t_admin', 't-admin'],
      ['vvill', 'will'],
      ['clara', 'dara'],
      ['s5', 'ss'],
      ['z2', 'zz'],
      ['b68', 'bbb'],
      ['g9', 'gg'],
    ];
    for (const [a, b] of same)
      expect(operatorNameSkeleton(a!), `${a} ~ ${b}`).toBe(operatorNameSkeleton(b!));
    const different = [
      ['alice', 'alicia'],
      ['bob', 'rob'],
      ['mike', 'nike'],
      ['reviewer_1', 'reviewer_2'],
      ['ann', 'am'],
    ];
    for (const [a, b] of different)
      expect(operatorNameSkeleton(a!), `${a} ≁ ${b}`).not.toBe(operatorNameSkeleton(b!));
    // Names from before the rule keep their other characters: no new slug can match them.
    expect(operatorNameSkeleton('ѕervice')).not.toBe(operatorNameSkeleton('service'));
  });
});
