import { redactSecrets } from '../../functions/platform/observability';

describe('log redaction', () => {
  it('masks every kind of secret we mint, keeping only its prefix', () => {
    const line = 'key fc_sk_live_AbC123xyz token fc_at_QQQ111 pub fc_pub_x9 link fc_link_y8 secret whsec_Zz99';
    expect(redactSecrets(line)).toBe('key fc_sk_live_[redacted] token fc_at_[redacted] pub fc_pub_[redacted] link fc_link_[redacted] secret whsec_[redacted]');
  });

  it('leaves ordinary text alone', () => {
    expect(redactSecrets('request item_123 for app_abc')).toBe('request item_123 for app_abc');
  });
});
