// The dev-workflow corpus (issue 21, item 4): commands an agent runs while it works, each run
// approved in the sandbox by devWorkflow.test.ts, in order, in a workspace prepared from FILES.
// Everything runs offline: packages come from tarballs, wheels and caches the corpus makes itself.
// A case whose tool is not on the machine is skipped with the reason; a case marked `known` is one
// the sandbox is expected to stop (docs/sandbox.md, "The dev-workflow corpus": which cases fail and why).

export interface CorpusCase {
  /** A short name for the table. */
  readonly name: string;
  /** The folder it runs in, relative to the corpus folder. */
  readonly cwd: string;
  readonly command: string;
  /**
   * A program that must be on PATH, else the case is skipped; or `pytest`, `venv` (ensurepip) and
   * `pip`: python3's modules; `tsc-local`: typescript in the repository's node_modules.
   */
  readonly requires?: string;
  /** What the output must show besides exit code 0. */
  readonly expect?: RegExp;
  /** Why the sandbox stops it, for a case expected to fail. */
  readonly known?: string;
  /**
   * The sandbox stops it, and its result names the folder to make writable: it is run again with
   * that writable_path (the extension's own question, answered with the sandboxed choice).
   */
  readonly retryWithGrant?: boolean;
}

/** The corpus folder, inside the workspace. */
export const CORPUS_FOLDER = 'dev-workflow';

const TINY_PACKAGE = JSON.stringify({ name: 'wat-tiny', version: '1.0.0', main: 'index.js', bin: { 'wat-tiny': 'bin.js' }, license: 'MIT' }, null, 2);

const APP_PACKAGE = JSON.stringify({
  name: 'wat-app',
  version: '1.0.0',
  private: true,
  scripts: { build: 'node build.js', test: 'node --test test/' },
}, null, 2);

/** Writes the lock file of a project that installs wat-tiny "from the registry": npm ci --offline finds it in the cache by its integrity. */
const WRITE_LOCK = `const crypto = require('crypto');
const fs = require('fs');
const tarball = fs.readFileSync('../tiny/wat-tiny-1.0.0.tgz');
const integrity = 'sha512-' + crypto.createHash('sha512').update(tarball).digest('base64');
const root = { name: 'wat-registry-app', version: '1.0.0', dependencies: { 'wat-tiny': '1.0.0' } };
fs.writeFileSync('package.json', JSON.stringify(root, null, 2));
fs.writeFileSync('package-lock.json', JSON.stringify({
  name: root.name, version: root.version, lockfileVersion: 3, requires: true,
  packages: {
    '': root,
    'node_modules/wat-tiny': { version: '1.0.0', resolved: 'https://registry.npmjs.org/wat-tiny/-/wat-tiny-1.0.0.tgz', integrity, bin: { 'wat-tiny': 'bin.js' } },
  },
}, null, 2));
console.log(integrity);
`;

/** Builds a pure-Python wheel by hand (no setuptools, no network): a zip with its dist-info. */
const MAKE_WHEEL = `import os, zipfile
os.makedirs('dist', exist_ok=True)
name = 'dist/wat_tiny-1.0-py3-none-any.whl'
files = {
    'wat_tiny/__init__.py': 'def hello():\\n    return "hello from the wat-tiny wheel"\\n',
    'wat_tiny-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\\nName: wat-tiny\\nVersion: 1.0\\n',
    'wat_tiny-1.0.dist-info/WHEEL': 'Wheel-Version: 1.0\\nGenerator: corpus\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',
}
record = ''.join(f'{path},,\\n' for path in files) + 'wat_tiny-1.0.dist-info/RECORD,,\\n'
with zipfile.ZipFile(name, 'w') as wheel:
    for path, text in files.items():
        wheel.writestr(path, text)
    wheel.writestr('wat_tiny-1.0.dist-info/RECORD', record)
print(name)
`;

/** The files the corpus starts from, relative to the corpus folder. */
export const FILES: Readonly<Record<string, string>> = {
  'tiny/package.json': TINY_PACKAGE,
  'tiny/index.js': 'exports.hello = () => "hello from wat-tiny";\n',
  'tiny/bin.js': '#!/usr/bin/env node\nconsole.log(require("./index.js").hello());\n',
  'app/package.json': APP_PACKAGE,
  'app/build.js': 'const fs = require("fs");\nfs.mkdirSync("dist", { recursive: true });\nfs.writeFileSync("dist/out.txt", "built\\n");\nconsole.log("build done");\n',
  'app/test/sum.test.js': 'const test = require("node:test");\nconst assert = require("node:assert");\ntest("adds", () => assert.strictEqual(1 + 1, 2));\n',
  'registry-app/write-lock.js': WRITE_LOCK,
  'ts/tsconfig.json': JSON.stringify({ compilerOptions: { outDir: 'out', strict: true, target: 'es2020', module: 'commonjs' }, include: ['src'] }, null, 2),
  'ts/src/main.ts': 'export const greeting: string = "hello from tsc";\nconsole.log(greeting);\n',
  'py/make_wheel.py': MAKE_WHEEL,
  'py/tests/test_sum.py': 'import unittest\n\nclass SumTest(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(1 + 1, 2)\n',
  'c/hello.c': '#include <stdio.h>\nint main(void) { printf("hello from C\\n"); return 0; }\n',
  'c/lib.c': 'int twice(int x) { return 2 * x; }\n',
  'c/Makefile': 'all: hello\n\nhello: hello.c\n\tcc -Wall -o hello hello.c\n\ntest: hello\n\t./hello | grep -q "hello from C"\n\techo make-test-ok\n\nclean:\n\trm -f hello lib.o libtwice.a\n',
  'git/seed/README.md': '# seed\n',
  'git/seed/a.txt': 'one\n',
  'rust/Cargo.toml': '[package]\nname = "wat-hello"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  'rust/src/main.rs': 'fn main() {\n    println!("hello from cargo");\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(1 + 1, 2);\n    }\n}\n',
  'go/go.mod': 'module example.com/wathello\n\ngo 1.20\n',
  'go/main.go': 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello from go") }\n',
  'go/main_test.go': 'package main\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif 1+1 != 2 {\n\t\tt.Fatal("no")\n\t}\n}\n',
  'fresh/README.md': '# fresh\n',
  'scripts/build.sh': '#!/bin/sh\nset -e\nmkdir -p ../build\necho "script build" > ../build/out.txt\necho script-ok\n',
};

/** Files made executable. */
export const EXECUTABLES: readonly string[] = ['tiny/bin.js', 'scripts/build.sh'];

const NPM = '--no-audit --no-fund';
const GIT_ID = '-c user.name=Corpus -c user.email=corpus@example.com';

export const CASES: readonly CorpusCase[] = [
  // npm: a tarball made here, installed, run, cached and installed again from the (private) cache.
  { name: 'npm pack', cwd: 'tiny', command: 'npm pack', expect: /wat-tiny-1\.0\.0\.tgz/ },
  { name: 'npm install ./tarball', cwd: 'app', command: `npm install ${NPM} ../tiny/wat-tiny-1.0.0.tgz`, expect: /added 1 package/ },
  { name: 'npm ls', cwd: 'app', command: 'npm ls wat-tiny', expect: /wat-tiny@1\.0\.0/ },
  { name: 'npx (local bin)', cwd: 'app', command: 'npx wat-tiny', expect: /hello from wat-tiny/ },
  { name: 'npm exec', cwd: 'app', command: 'npm exec -- wat-tiny', expect: /hello from wat-tiny/ },
  { name: 'npm run build', cwd: 'app', command: 'npm run build', expect: /build done/ },
  { name: 'npm test', cwd: 'app', command: 'npm test', expect: /pass 1/ },
  { name: 'node --test', cwd: 'app', command: 'node --test test/', expect: /pass 1/ },
  { name: 'npm ci (file: tarball)', cwd: 'app', command: `npm ci ${NPM}`, expect: /added 1 package/ },
  { name: 'npm version', cwd: 'app', command: 'npm version patch --no-git-tag-version', expect: /v1\.0\.1/ },
  { name: 'npm install ./folder', cwd: 'app', command: `npm install ${NPM} ../tiny`, expect: /(added|changed) 1 package|up to date/ },
  { name: 'npm uninstall', cwd: 'app', command: `npm uninstall ${NPM} wat-tiny`, expect: /removed 1 package|up to date/ },
  { name: 'npm cache add (private cache)', cwd: 'tiny', command: 'npm cache add ./wat-tiny-1.0.0.tgz' },
  { name: 'node script (lock file)', cwd: 'registry-app', command: 'node write-lock.js', expect: /^sha512-/m },
  { name: 'npm ci --offline (from cache)', cwd: 'registry-app', command: `npm ci --offline ${NPM}`, expect: /added 1 package/ },
  { name: 'npx after offline ci', cwd: 'registry-app', command: 'npx wat-tiny', expect: /hello from wat-tiny/ },
  { name: 'npm cache verify', cwd: 'tiny', command: 'npm cache verify', expect: /Cache verified/ },
  { name: 'npm init -y', cwd: 'fresh', command: 'npm init -y', expect: /"name": "fresh"/ },
  { name: 'npm install -g', cwd: 'tiny', command: `npm install -g ${NPM} ./wat-tiny-1.0.0.tgz`, known: 'a global install writes the system\'s node_modules (/usr/lib/node_modules), which is not a cache' },
  { name: 'tsc (local typescript)', cwd: 'ts', command: 'npx tsc -p .', requires: 'tsc-local' },
  { name: 'node built output', cwd: 'ts', command: 'node out/main.js', requires: 'tsc-local', expect: /hello from tsc/ },
  // Python: a venv, a wheel built here, pip without an index, the test runners.
  { name: 'python3 build script (wheel)', cwd: 'py', command: 'python3 make_wheel.py', requires: 'python3', expect: /wat_tiny-1\.0-py3-none-any\.whl/ },
  { name: 'python3 -m venv', cwd: 'py', command: 'python3 -m venv .venv', requires: 'venv' },
  { name: 'pip install wheel --no-index', cwd: 'py', command: '.venv/bin/pip install --no-index dist/wat_tiny-1.0-py3-none-any.whl', requires: 'venv', expect: /Successfully installed wat-tiny-1\.0/ },
  { name: 'venv python imports it', cwd: 'py', command: '.venv/bin/python -c "import wat_tiny; print(wat_tiny.hello())"', requires: 'venv', expect: /hello from the wat-tiny wheel/ },
  { name: 'pip --find-links --no-index', cwd: 'py', command: '.venv/bin/pip install --no-index --find-links dist --force-reinstall wat-tiny', requires: 'venv', expect: /Successfully installed wat-tiny-1\.0/ },
  { name: 'pip list', cwd: 'py', command: '.venv/bin/pip list', requires: 'venv', expect: /wat-tiny/ },
  { name: 'python3 -m unittest', cwd: 'py', command: 'python3 -m unittest discover -s tests', requires: 'python3', expect: /OK/ },
  { name: 'python3 -m pytest', cwd: 'py', command: 'python3 -m pytest -q -p no:cacheprovider tests', requires: 'pytest', expect: /1 passed/ },
  { name: 'python3 -m compileall', cwd: 'py', command: 'python3 -m compileall -q tests', requires: 'python3' },
  { name: 'pip install --user (grant)', cwd: 'py', command: 'python3 -m pip install --user --break-system-packages --no-index dist/wat_tiny-1.0-py3-none-any.whl', requires: 'pip', retryWithGrant: true, expect: /Successfully installed wat-tiny-1\.0/ },
  // C and make.
  { name: 'gcc', cwd: 'c', command: 'gcc -Wall -o hello hello.c', requires: 'gcc' },
  { name: 'run the build', cwd: 'c', command: './hello', requires: 'gcc', expect: /hello from C/ },
  { name: 'cc -c && ar', cwd: 'c', command: 'cc -c lib.c -o lib.o && ar rcs libtwice.a lib.o', requires: 'cc' },
  { name: 'make clean', cwd: 'c', command: 'make clean', requires: 'make' },
  { name: 'make', cwd: 'c', command: 'make', requires: 'make', expect: /cc -Wall -o hello hello\.c/ },
  { name: 'make test', cwd: 'c', command: 'make test', requires: 'make', expect: /make-test-ok/ },
  { name: 'shell build script', cwd: 'scripts', command: './build.sh', expect: /script-ok/ },
  { name: 'tar', cwd: '.', command: 'tar czf build/c.tgz c && tar tzf build/c.tgz', expect: /c\/hello\.c/ },
  // git: a nested repository made, used, cloned.
  { name: 'git init', cwd: 'git', command: 'git init -q repo && cp seed/* repo/', requires: 'git' },
  { name: 'git add', cwd: 'git/repo', command: 'git add -A', requires: 'git' },
  { name: 'git commit', cwd: 'git/repo', command: `git ${GIT_ID} commit -qm first && git log --oneline`, requires: 'git', expect: /first/ },
  { name: 'git branch', cwd: 'git/repo', command: 'git branch feature && git branch', requires: 'git', expect: /feature/ },
  { name: 'git checkout -b', cwd: 'git/repo', command: 'git checkout -q -b topic && git branch --show-current', requires: 'git', expect: /^topic$/m },
  { name: 'git commit on a branch', cwd: 'git/repo', command: `echo two >> a.txt && git ${GIT_ID} commit -qam second`, requires: 'git' },
  { name: 'git tag', cwd: 'git/repo', command: 'git tag v1 && git tag', requires: 'git', expect: /v1/ },
  { name: 'git stash', cwd: 'git/repo', command: `echo three >> a.txt && git ${GIT_ID} stash -q && git stash list`, requires: 'git', expect: /stash@\{0\}/ },
  { name: 'git stash pop', cwd: 'git/repo', command: 'git stash pop -q && git diff --stat', requires: 'git', expect: /a\.txt/ },
  { name: 'git merge', cwd: 'git/repo', command: `git checkout -q -- a.txt && git checkout -q feature && git ${GIT_ID} merge -q --no-edit topic && git log --oneline`, requires: 'git', expect: /second/ },
  { name: 'git clone (local)', cwd: 'git', command: 'git clone -q repo clone && git -C clone log --oneline', requires: 'git', expect: /first/ },
  { name: 'git format-patch', cwd: 'git/repo', command: 'git format-patch -q -1 -o ../patches && ls ../patches', requires: 'git', expect: /\.patch/ },
  { name: 'git worktree add', cwd: 'git/repo', command: 'git worktree add -q -b wt-branch ../repo-wt && git worktree list', requires: 'git', expect: /repo-wt/ },
  // Rust and Go, where installed.
  { name: 'cargo build --offline', cwd: 'rust', command: 'cargo build --offline', requires: 'cargo', expect: /Finished/ },
  { name: 'cargo test --offline', cwd: 'rust', command: 'cargo test --offline', requires: 'cargo', expect: /test result: ok/ },
  { name: 'cargo run --offline', cwd: 'rust', command: 'cargo run --offline -q', requires: 'cargo', expect: /hello from cargo/ },
  { name: 'go build', cwd: 'go', command: 'go build ./...', requires: 'go' },
  { name: 'go test', cwd: 'go', command: 'go test ./...', requires: 'go', expect: /ok/ },
  { name: 'go vet', cwd: 'go', command: 'go vet ./...', requires: 'go' },
];
