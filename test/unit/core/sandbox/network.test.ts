import * as assert from 'node:assert/strict';
import { NEVER_CANCELLED } from '../../../../src/core/errors';
import { checkAddresses, classifyAddress, describeNetwork, ecosystemDomains, gitRemoteHosts, judgeDomain, matchesDomain, normalizeHost, type DomainRules } from '../../../../src/core/sandbox/network';
import { MAX_QUESTIONS_PER_COMMAND, NetworkSession } from '../../../../src/core/sandbox/networkGate';
import { ScriptedApprover } from '../../support/context';

const rules = (allowed: string[] = [], denied: string[] = [], defaults: string[] = []): DomainRules => ({ allowed, denied, defaults });

describe('sandbox network rules', () => {
  it('normalizes hosts and matches entries by whole name or by *. subdomain', () => {
    assert.equal(normalizeHost('Registry.NPMjs.org.'), 'registry.npmjs.org');
    assert.equal(normalizeHost('[FD00:EC2::254]'), 'fd00:ec2::254');
    assert.ok(matchesDomain('example.com', 'example.com'));
    assert.ok(!matchesDomain('a.example.com', 'example.com'));
    assert.ok(!matchesDomain('notexample.com', 'example.com'));
    assert.ok(matchesDomain('a.b.example.com', '*.example.com'));
    assert.ok(!matchesDomain('example.com', '*.example.com'));
    assert.ok(!matchesDomain('badexample.com', '*.example.com'));
    assert.ok(!matchesDomain('example.com', ''));
  });

  it('classifies addresses: only public unicast is public; metadata is named as such', () => {
    assert.equal(classifyAddress('93.184.216.34'), 'public');
    assert.equal(classifyAddress('2606:4700::1111'), 'public');
    assert.equal(classifyAddress('127.0.0.3'), 'loopback');
    assert.equal(classifyAddress('::1'), 'loopback');
    assert.equal(classifyAddress('10.1.2.3'), 'private');
    assert.equal(classifyAddress('192.168.1.1'), 'private');
    assert.equal(classifyAddress('172.16.0.1'), 'private');
    assert.equal(classifyAddress('fd12::1'), 'private');
    assert.equal(classifyAddress('169.254.1.1'), 'link-local');
    assert.equal(classifyAddress('fe80::1'), 'link-local');
    assert.equal(classifyAddress('169.254.169.254'), 'metadata');
    assert.equal(classifyAddress('fd00:ec2::254'), 'metadata');
    assert.equal(classifyAddress('::ffff:169.254.169.254'), 'metadata');
    assert.equal(classifyAddress('::ffff:127.0.0.1'), 'loopback');
    assert.equal(classifyAddress('0.0.0.0'), 'special');
    assert.equal(classifyAddress('not an address'), 'special');
  });

  it('refuses inward addresses unless the domain is named, and dials the first checked address', () => {
    assert.deepEqual(checkAddresses('pypi.org', ['151.101.0.223', '151.101.64.223'], false), { address: '151.101.0.223' });
    const rebinding = checkAddresses('evil.example', ['151.101.0.223', '127.0.0.1'], false);
    assert.ok('refused' in rebinding && /evil\.example \(127\.0\.0\.1\) is a loopback address/.test(rebinding.refused));
    assert.deepEqual(checkAddresses('dev.internal', ['10.0.0.5'], true), { address: '10.0.0.5' });
    assert.ok('refused' in checkAddresses('x.example', [], false));
  });

  it('judges a domain: denied wins, metadata and link-local are refused before any question, loopback and private literals are asked about by port, allowed and defaults pass, others ask', () => {
    const r = rules(['*.corp.example', '10.0.0.9'], ['bad.example', '*.npmjs.org'], ['registry.npmjs.org', 'github.com']);
    assert.equal(judgeDomain('registry.npmjs.org', r).decision, 'deny');
    assert.equal(judgeDomain('bad.example', r).decision, 'deny');
    assert.equal(judgeDomain('github.com', r).decision, 'allow');
    assert.equal(judgeDomain('git.corp.example', r).decision, 'allow');
    assert.equal(judgeDomain('elsewhere.example', r).decision, 'ask');
    assert.equal(judgeDomain('metadata.google.internal', r).decision, 'deny');
    assert.equal(judgeDomain('169.254.169.254', r).decision, 'deny');
    assert.equal(judgeDomain('fd00:ec2::254', r).decision, 'deny');
    assert.deepEqual(judgeDomain('127.0.0.1', r), { decision: 'local', kind: 'loopback' });
    assert.deepEqual(judgeDomain('::1', r), { decision: 'local', kind: 'loopback' });
    assert.deepEqual(judgeDomain('localhost', r), { decision: 'local', kind: 'loopback' });
    assert.deepEqual(judgeDomain('192.168.1.20', r), { decision: 'local', kind: 'private' });
    assert.equal(judgeDomain('169.254.1.1', r).decision, 'deny');
    assert.equal(judgeDomain('0.0.0.0', r).decision, 'deny');
    assert.equal(judgeDomain('10.0.0.9', r).decision, 'allow');
    assert.equal(judgeDomain('127.0.0.1', rules([], ['127.0.0.1'])).decision, 'deny');
    assert.equal(judgeDomain('93.184.216.34', r).decision, 'ask');
    assert.equal(judgeDomain('metadata.google.internal', rules(['metadata.google.internal'])).decision, 'allow');
  });

  it('finds the registries of the ecosystems a workspace folder uses', () => {
    assert.deepEqual(ecosystemDomains(['package.json', 'README.md']), ['registry.npmjs.org']);
    assert.deepEqual(ecosystemDomains(['requirements-dev.txt']), ['pypi.org', 'files.pythonhosted.org']);
    assert.deepEqual(ecosystemDomains(['Cargo.toml', 'go.mod']).sort(), ['crates.io', 'index.crates.io', 'proxy.golang.org', 'static.crates.io', 'sum.golang.org']);
    assert.deepEqual(ecosystemDomains(['app.csproj']), ['api.nuget.org']);
    assert.deepEqual(ecosystemDomains(['notes.txt', 'src']), []);
  });

  it('reads the hosts of git remotes from .git/config text', () => {
    const config = [
      '[core]',
      '\turl = https://not-a-remote.example/x',
      '[remote "origin"]',
      '\turl = https://GitHub.com/owner/repo.git',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '[remote "mirror"]',
      '\turl = git@gitlab.example.org:group/repo.git',
      '\tpushurl = "ssh://git@[2001:db8::1]:2222/repo"',
      '[remote "local"]',
      '\turl = /srv/repos/x.git',
      '[remote "file"]',
      '\turl = file:///srv/x.git',
      '[branch "main"]',
      '\tremote = origin',
    ].join('\n');
    assert.deepEqual(gitRemoteHosts(config), ['github.com', 'gitlab.example.org', '2001:db8::1']);
  });

  it('describes what the proxy saw', () => {
    assert.equal(describeNetwork({ reached: new Set(['b.example', 'a.example']), refused: new Set(['c.example']) }), 'network through the proxy: 2 domains reached (a.example, b.example), 1 refused (c.example)');
    assert.equal(describeNetwork({ reached: new Set(), refused: new Set() }), 'network through the proxy: 0 domains reached, 0 refused');
  });
});

describe('sandbox network gate', () => {
  it('asks once per new domain for concurrent connections, and "this command" does not carry over to the next command', async () => {
    const session = new NetworkSession(() => rules([], [], ['registry.npmjs.org']));
    const approver = new ScriptedApprover(true);
    const first = session.forCommand('npm install', approver, NEVER_CANCELLED);
    assert.deepEqual(await first.admit('registry.npmjs.org', 443), { allowed: true, named: false });
    const answers = await Promise.all([first.admit('other.example', 443), first.admit('other.example', 443)]);
    assert.deepEqual(answers, [{ allowed: true, named: false }, { allowed: true, named: false }]);
    assert.equal(approver.asked.length, 1);
    assert.equal(approver.asked[0].kind, 'network');
    assert.deepEqual(approver.asked[0].allowDomains, ['other.example']);
    assert.match(approver.asked[0].detail, /npm install.*other\.example \(port 443\)/);
    const second = session.forCommand('npm ci', approver, NEVER_CANCELLED);
    await second.admit('other.example', 443);
    assert.equal(approver.asked.length, 2);
  });

  it('"this session" allows the domain for later commands; a refusal refuses the domain for the rest of the command without asking again', async () => {
    const session = new NetworkSession(() => rules());
    const approver = new ScriptedApprover(true);
    approver.choice = 'alternative';
    await session.forCommand('a', approver, NEVER_CANCELLED).admit('s.example', 80);
    assert.deepEqual(await session.forCommand('b', approver, NEVER_CANCELLED).admit('s.example', 80), { allowed: true, named: false });
    assert.equal(approver.asked.length, 1);
    approver.choice = 'reject';
    const command = session.forCommand('c', approver, NEVER_CANCELLED);
    assert.equal((await command.admit('r.example', 80)).allowed, false);
    assert.equal((await command.admit('r.example', 80)).allowed, false);
    assert.equal(approver.asked.length, 2);
  });

  it('never asks about a denied domain, and tallies reached and refused domains', async () => {
    const session = new NetworkSession(() => rules([], ['denied.example']));
    const approver = new ScriptedApprover(true);
    const command = session.forCommand('curl', approver, NEVER_CANCELLED);
    const admission = await command.admit('denied.example', 443);
    assert.ok(!admission.allowed && /deniedDomains/.test(admission.why));
    assert.equal(approver.asked.length, 0);
    command.noteRefused('denied.example');
    command.noteReached('ok.example');
    assert.equal(describeNetwork(command.tally()), 'network through the proxy: 1 domain reached (ok.example), 1 refused (denied.example)');
  });

  it('refuses new domains without asking once a command has asked about the most it may', async () => {
    const session = new NetworkSession(() => rules());
    const approver = new ScriptedApprover(false);
    const command = session.forCommand('a loop over names', approver, NEVER_CANCELLED);
    for (let index = 0; index < MAX_QUESTIONS_PER_COMMAND; index += 1) {
      assert.equal((await command.admit(`n${index}.example`, 443)).allowed, false);
    }
    const beyond = await command.admit('one-more.example', 443);
    assert.ok(!beyond.allowed && /already asked about 10 domains/.test(beyond.why));
    assert.equal(approver.asked.length, MAX_QUESTIONS_PER_COMMAND);
  });
});
