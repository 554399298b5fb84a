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

  it('leaves no performance marks behind and observes none: secretlint loads the stand-in profiler (packages/secretlint-profiler)', async () => {
    let observed = 0;
    const observer = new PerformanceObserver((items) => (observed += items.getEntries().length));
    observer.observe({ entryTypes: ['mark'] });
    try {
      await redactSecrets(positives);
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The real profiler marked each phase of a scan ("@core>lint::start||...") and kept every mark of the process.
      assert.deepEqual(performance.getEntriesByType('mark').map((mark) => mark.name).filter((name) => name.startsWith('@')), []);
      assert.equal(observed, 0);
    } finally {
      observer.disconnect();
    }
  });

  it('redacts the password of a URL the recommended rules miss, keeping user and host readable', async () => {
    const { text } = await redactSecrets('url.https://tok:abc@host/.insteadof=x\n');
    assert.equal(text, 'url.https://tok:[REDACTED url-credentials secret, line 1]@host/.insteadof=x\n');
  });

  for (const url of ['url.https://builder:Zq81ReLq7Tk2Ww@git.example.com/.insteadof=https://git.example.com/', 'https://x-access-token:v1.abc123def456@github.com/o/r.git', 'remote.origin.url=http://me:hunter2hunter2@10.0.0.1:8080/r', 'postgres://app:canary-pw-42@db.internal:5432/app', 'npm config: //registry.example.com/:_authToken=x https://u:p4ssw0rdCanary@registry.example.com/']) {
    it(`redacts credentials in ${url.slice(0, 30)}...`, async () => {
      const { text, redactions } = await redactSecrets(url);
      const password = /:\/\/[^:]*:([^@]+)@/.exec(url)?.[1] ?? '';
      assert.ok(!text.includes(password), text);
      assert.ok(redactions.length > 0, JSON.stringify(redactions));
    });
  }

  it('leaves a URL without a password alone', async () => {
    const line = 'see https://github.com/o/r and git@github.com:o/r.git and http://localhost:8080/x\n';
    assert.equal((await redactSecrets(line)).text, line);
  });

  it('redacts secret values in the JSON form of the environment and keeps the names', async () => {
    const json = '{\n  "HOME": "/home/u",\n  "GITHUB_TOKEN": "canary-gh-0123456789",\n  "my_api_key": "canary-key-abcdefgh",\n  "Db_Password": "canary-pw-abcdefgh"\n}\n';
    const { text } = await redactSecrets(json);
    assert.doesNotMatch(text, /canary-/);
    assert.match(text, /"GITHUB_TOKEN": "\[REDACTED secret-json-value secret, line 3\]"/);
    assert.match(text, /"HOME": "\/home\/u"/);
  });

  it('leaves JSON placeholders and source code that names a secret alone', async () => {
    const text = '{ "API_TOKEN": "${API_TOKEN}", "password": "********" }\nconst apiKey = process.env.API_KEY;\napiKey: "short"\n';
    assert.equal((await redactSecrets(text)).text, text);
  });

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
