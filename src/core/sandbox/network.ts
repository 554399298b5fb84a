// The network of an approved sandboxed command, by domain: which names may be reached without a
// question (the workspace's package registries and git remotes, runCommand.allowedDomains), which
// are refused (runCommand.deniedDomains), and which addresses are never dialled unless the user
// named the domain (private, loopback, link-local, cloud metadata). Pure: the proxy that asks and
// connects is node/networkProxy.ts, the questions are networkGate.ts.
import ipaddr from 'ipaddr.js';

/** Names that answer cloud metadata whatever they resolve to. */
const METADATA_NAMES = ['metadata.google.internal', 'metadata.goog', 'metadata'];

/** A host as the proxy compares it: lower case, no trailing dot, an IPv6 literal without brackets. */
export function normalizeHost(host: string): string {
  let name = host.trim().toLowerCase();
  if (name.startsWith('[') && name.endsWith(']')) {
    name = name.slice(1, -1);
  }
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

/**
 * A valid host name or IP literal: letters, digits, hyphens and dots in labels of 1 to 63
 * characters (underscores too, as some registries' names have them), at most 253 characters.
 */
export function isValidHost(host: string): boolean {
  if (ipaddr.isValid(host)) {
    return true;
  }
  return host.length > 0 && host.length <= 253 && host.split('.').every((label) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label));
}

/**
 * Whether a host matches a setting's entry: `example.com` is that name only; `*.example.com` is
 * any name under it (not example.com itself). An entry is compared as normalizeHost writes it.
 */
export function matchesDomain(host: string, entry: string): boolean {
  const pattern = normalizeHost(entry);
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1);
    return host.endsWith(suffix) && host.length > suffix.length;
  }
  return pattern !== '' && host === pattern;
}

/** What an address is, for the refusal: anything but `public` is dialled only for a named domain. */
export type AddressKind = 'public' | 'metadata' | 'loopback' | 'private' | 'link-local' | 'special';

const METADATA_ADDRESSES = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'];

/** Classifies an IP address (ipaddr.js's ranges); an IPv4 address in IPv6 clothing is judged as IPv4. */
export function classifyAddress(address: string): AddressKind {
  if (!ipaddr.isValid(address)) {
    return 'special';
  }
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const normalized = parsed.toNormalizedString();
  if (METADATA_ADDRESSES.some((metadata) => ipaddr.parse(metadata).toNormalizedString() === normalized && ipaddr.parse(metadata).kind() === parsed.kind())) {
    return 'metadata';
  }
  switch (parsed.range()) {
    case 'unicast':
      return 'public';
    case 'loopback':
      return 'loopback';
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
      return 'private';
    case 'linkLocal':
      return 'link-local';
    default:
      return 'special';
  }
}

/** The domain settings as the proxy reads them for each connection. */
export interface DomainRules {
  /** runCommand.allowedDomains (user settings): reached without a question; a private address only for these. */
  readonly allowed: readonly string[];
  /** runCommand.deniedDomains (user settings): refused, whatever else allows them. */
  readonly denied: readonly string[];
  /** The workspace's defaults: its ecosystems' registries and its git remotes' hosts. */
  readonly defaults: readonly string[];
  /** The machine's loopback ports reached without a question: runCommand.allowedLocalPorts and what this window's commands serve. */
  readonly localPorts?: readonly number[];
}

/**
 * What the rules say of a host before anyone is asked. `local`: a loopback or private address
 * written out (or `localhost`), asked about by address and port, never by domain.
 */
export type DomainDecision = { readonly decision: 'allow' | 'ask' } | { readonly decision: 'local'; readonly kind: 'loopback' | 'private' } | { readonly decision: 'deny'; readonly why: string };

export function judgeDomain(host: string, rules: DomainRules): DomainDecision {
  const denied = rules.denied.find((entry) => matchesDomain(host, entry));
  if (denied) {
    return { decision: 'deny', why: `${host} is in workspaceAgentTools.runCommand.deniedDomains (${denied})` };
  }
  if (isMetadataName(host) && !isNamed(host, rules)) {
    return { decision: 'deny', why: `${host} is a cloud metadata name; only a domain named in workspaceAgentTools.runCommand.allowedDomains may be reached there` };
  }
  if (host === 'localhost' && !isNamed(host, rules)) {
    return { decision: 'local', kind: 'loopback' };
  }
  if (isAddressLiteral(host) && !isNamed(host, rules)) {
    const kind = classifyAddress(host);
    if (kind === 'loopback' || kind === 'private') {
      return { decision: 'local', kind };
    }
    const refused = checkAddresses(host, [host], false);
    if ('refused' in refused) {
      return { decision: 'deny', why: refused.refused };
    }
  }
  if ([...rules.allowed, ...rules.defaults].some((entry) => matchesDomain(host, entry))) {
    return { decision: 'allow' };
  }
  return { decision: 'ask' };
}

/** An IP address written out in full (four decimal parts, or IPv6): the proxy dials it without a lookup. */
export function isAddressLiteral(host: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(host) || ipaddr.IPv6.isValid(host);
}

function isMetadataName(host: string): boolean {
  return METADATA_NAMES.includes(host);
}

/** True when runCommand.allowedDomains names the host (exactly or by a `*.` entry): only then may it reach a private address. */
export function isNamed(host: string, rules: Pick<DomainRules, 'allowed'>): boolean {
  return rules.allowed.some((entry) => matchesDomain(host, entry));
}

/**
 * The address to dial among those a name resolved to, or why none may be: a private, loopback,
 * link-local or metadata address only for a domain named in allowedDomains, so a public name that
 * resolves inward (DNS rebinding) or an IP literal cannot reach the machine's or the cloud's
 * services. Every address must pass: the first one is dialled, and no other is looked up again.
 */
export function checkAddresses(host: string, addresses: readonly string[], named: boolean): { readonly address: string } | { readonly refused: string } {
  if (addresses.length === 0) {
    return { refused: `${host} did not resolve` };
  }
  if (!named) {
    for (const address of addresses) {
      const kind = classifyAddress(address);
      if (kind !== 'public') {
        const what = kind === 'special' ? 'a reserved' : kind === 'metadata' ? 'a cloud metadata' : `a ${kind}`;
        const shown = address === host ? host : `${host} (${address})`;
        return { refused: `${shown} is ${what} address; only a domain named in workspaceAgentTools.runCommand.allowedDomains may be reached there` };
      }
    }
  }
  return { address: addresses[0] };
}

/** Files at a workspace folder's top that name an ecosystem, and the hosts its package manager downloads from. */
const ECOSYSTEMS: readonly { readonly files: RegExp; readonly domains: readonly string[] }[] = [
  { files: /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|\.yarnrc\.yml)$/, domains: ['registry.npmjs.org'] },
  { files: /^yarn\.lock$/, domains: ['registry.npmjs.org', 'registry.yarnpkg.com'] },
  { files: /^(requirements.*\.txt|pyproject\.toml|setup\.py|setup\.cfg|Pipfile|Pipfile\.lock|poetry\.lock|uv\.lock)$/, domains: ['pypi.org', 'files.pythonhosted.org'] },
  { files: /^(Cargo\.toml|Cargo\.lock)$/, domains: ['crates.io', 'index.crates.io', 'static.crates.io'] },
  { files: /^(go\.mod|go\.sum)$/, domains: ['proxy.golang.org', 'sum.golang.org'] },
  { files: /^(Gemfile|Gemfile\.lock|.*\.gemspec)$/, domains: ['rubygems.org', 'index.rubygems.org'] },
  { files: /^(composer\.json|composer\.lock)$/, domains: ['repo.packagist.org'] },
  { files: /^(pom\.xml|build\.gradle|build\.gradle\.kts|settings\.gradle|settings\.gradle\.kts)$/, domains: ['repo.maven.apache.org', 'repo1.maven.org'] },
  { files: /^(build\.gradle|build\.gradle\.kts|settings\.gradle|settings\.gradle\.kts)$/, domains: ['plugins.gradle.org', 'services.gradle.org'] },
  { files: /\.(csproj|fsproj|vbproj|sln)$|^(nuget\.config|NuGet\.Config|packages\.config)$/, domains: ['api.nuget.org'] },
  { files: /^(pubspec\.yaml)$/, domains: ['pub.dev'] },
];

/** The registries of the ecosystems whose files are among these names (a workspace folder's top-level entries). */
export function ecosystemDomains(fileNames: readonly string[]): string[] {
  const domains = new Set<string>();
  for (const ecosystem of ECOSYSTEMS) {
    if (fileNames.some((name) => ecosystem.files.test(name))) {
      ecosystem.domains.forEach((domain) => domains.add(domain));
    }
  }
  return [...domains];
}

/**
 * The hosts of a repository's remotes, from its `.git/config` as text (git is never run in the
 * user's repository for this): `url = https://host/...`, `ssh://user@host:port/...` and the scp
 * form `user@host:path`. `pushurl` counts too; `insteadOf` rewrites are not followed.
 */
export function gitRemoteHosts(configText: string): string[] {
  const hosts = new Set<string>();
  let inRemote = false;
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inRemote = /^\[\s*remote\s+"[^"]*"\s*\]/i.test(line);
      continue;
    }
    const match = inRemote ? /^(url|pushurl)\s*=\s*("?)(.*?)\2\s*(?:[#;].*)?$/i.exec(line) : null;
    const host = match ? urlHost(match[3]) : undefined;
    if (host && isValidHost(host)) {
      hosts.add(host);
    }
  }
  return [...hosts];
}

function urlHost(url: string): string | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^/:?#]+)/i.exec(url);
  if (scheme) {
    return /^(file|ext):/i.test(url) ? undefined : normalizeHost(scheme[1]);
  }
  // scp-like: [user@]host:path, where host has no slash before the colon.
  const scp = /^(?:[^@/]+@)?([^/:]+):(?!\/\/)/.exec(url);
  return scp ? normalizeHost(scp[1]) : undefined;
}

/** What one command's proxy saw, for the result's `Sandbox:` line. */
export interface NetworkTally {
  readonly reached: ReadonlySet<string>;
  readonly refused: ReadonlySet<string>;
}

/** `network through the proxy: 2 domains reached (a, b), 1 refused (c)`. */
export function describeNetwork(tally: NetworkTally | undefined): string {
  if (!tally) {
    return 'network only through the proxy (allowed domains; others ask)';
  }
  const list = (set: ReadonlySet<string>): string => {
    const names = [...set].sort();
    return names.length === 0 ? '' : ` (${names.slice(0, 5).join(', ')}${names.length > 5 ? `, and ${names.length - 5} more` : ''})`;
  };
  const count = (set: ReadonlySet<string>, word: string): string => `${set.size} ${set.size === 1 ? 'domain' : 'domains'} ${word}${list(set)}`;
  return `network through the proxy: ${count(tally.reached, 'reached')}, ${tally.refused.size} refused${list(tally.refused)}`;
}
