// The rules engine reads the descriptor rule table packed (functions/core/enrichment/rule-table.data.ts,
// generated from the hand-edited rule-table.ts by scripts/enrichment/pack-rule-table.ts): the packed
// rows must be the table's, exactly.
import { readFileSync } from 'node:fs';
import { unpackText, unpackedSource } from '../../functions/core/enrichment/packed-text';
import * as table from '../../functions/core/enrichment/rule-table';
import { PACKED_RULE_TIERS, RULES_VERSION } from '../../functions/core/enrichment/rule-table.data';
import { RULES_VERSION as ENGINE_VERSION } from '../../functions/core/enrichment/rules';
import { renderRuleTable, RULE_TABLE_ARTEFACT } from '../../scripts/enrichment/pack-rule-table';

describe('the packed rule table', () => {
  it('is what the generator writes for the table today (run scripts/enrichment/pack-rule-table.ts after editing it)', () => {
    expect(unpackedSource(readFileSync(RULE_TABLE_ARTEFACT, 'utf8')) === unpackedSource(renderRuleTable())).toBe(true);
  });

  it('holds the rows of every tier exactly as the table writes them, and its version', () => {
    const tiers = JSON.parse(unpackText(PACKED_RULE_TIERS)) as Record<string, unknown>;
    expect(tiers).toStrictEqual({
      PRIORITY_KEYWORDS: table.PRIORITY_KEYWORDS,
      MERCHANTS: table.MERCHANTS,
      GENERIC_KEYWORDS: table.GENERIC_KEYWORDS,
      FALLBACK_KEYWORDS: table.FALLBACK_KEYWORDS,
    });
    expect([RULES_VERSION, ENGINE_VERSION]).toEqual([table.RULES_VERSION, table.RULES_VERSION]);
  });
});
