import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactSecrets } from '../../../../src/core/secrets/redactSecrets';
import { fixturePath } from '../../support/paths';

const FIXTURES = fixturePath('secrets');
const positives = fs.readFileSync(path.join(FIXTURES, 'positives.txt'), 'utf8');
const traps = fs.readFileSync(path.join(FIXTURES, 'traps.txt'), 'utf8');

describe('secrets/redactSecrets', () => {
  const SECRETS = [
    ['AKIA4OZRMFJ3ZT6Y7XQA', 'aws-access-key-id', 1],
    ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYz83kd9s0fQ', 'aws', 2],
    ['ghp_R5v8KzQ2mN7pL4xW9tY3bC6dF1gH0jK2sA5e', 'github', 3],
    ['b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', 'privatekey', 4],
    ['xoxb-2048617263-4837261958374-Rk3nVb8TqLp2WsXy7MzJd4Hc', 'slack', 8],
    ['s3cr3t-P4ssw0rd!', 'secret-assignment', 9],
    ['sk_live_51HqLyjWDarjtT1zdp7dcXYZabc123', 'stripe-secret-key', 10],
    ['AIzaSyB3x9K2mP7qL4wT8vN1cD6fG0hJ5kR2sQe', 'google-api-key', 11],
    ['SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c', 'jwt', 12],
  ] as const;

  for (const [secret, kind, line] of SECRETS) {
    it(`redacts a ${kind} secret and names its kind and line`, async () => {
      const { text, redactions } = await redactSecrets(positives);
      assert.ok(!text.includes(secret), `${secret} survived:\n${text}`);
      assert.ok(redactions.some((redaction) => redaction.kind === kind && redaction.line === line), JSON.stringify(redactions));
      assert.ok(text.includes(`[REDACTED ${kind} secret, line ${line}]`));
    });
  }

  it('keeps the name of an env assignment readable', async () => {
    const { text } = await redactSecrets('export DATABASE_PASSWORD="s3cr3t-P4ssw0rd!"\n');
    assert.equal(text, 'export DATABASE_PASSWORD="[REDACTED secret-assignment secret, line 1]"\n');
  });

  it('finds env assignments after read_file line numbers', async () => {
    const { text } = await redactSecrets('     7\tOPENAI_API_KEY=abcd1234efgh5678\n');
    assert.equal(text, '     7\tOPENAI_API_KEY=[REDACTED secret-assignment secret, line 1]\n');
  });

  it('leaves hashes, UUIDs, integrity strings, base64 images, code and placeholders untouched', async () => {
    const { text, redactions } = await redactSecrets(traps);
    assert.deepEqual(redactions, []);
    assert.equal(text, traps);
  });

  it('returns text without secrets unchanged', async () => {
    const plain = '     1\tconst x = 1;\n     2\texport default x;\n';
    assert.deepEqual(await redactSecrets(plain), { text: plain, redactions: [] });
  });
});
