// Twenty secret variables as users' shells export them, each value a unique canary, for the tests
// that no command sees them (unit: the environment built; integration: env, printenv, /proc).
export const SEEDED_SECRETS: Readonly<Record<string, string>> = {
  GITHUB_TOKEN: 'canary-env-01-ghp',
  GH_TOKEN: 'canary-env-02-gh',
  AWS_ACCESS_KEY_ID: 'canary-env-03-akia',
  AWS_SECRET_ACCESS_KEY: 'canary-env-04-aws',
  AWS_SESSION_TOKEN: 'canary-env-05-sts',
  NPM_TOKEN: 'canary-env-06-npm',
  OPENAI_API_KEY: 'canary-env-07-openai',
  ANTHROPIC_API_KEY: 'canary-env-08-anthropic',
  AZURE_CLIENT_SECRET: 'canary-env-09-azure',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/u/canary-env-10-gcp.json',
  DOCKER_AUTH_CONFIG: 'canary-env-11-docker',
  PGPASSWORD: 'canary-env-12-pg',
  MYSQL_PWD: 'canary-env-13-mysql',
  DATABASE_URL: 'postgres://app:canary-env-14-db@db.internal:5432/app',
  SLACK_WEBHOOK_SECRET: 'canary-env-15-slack',
  STRIPE_PRIVATE_KEY: 'canary-env-16-stripe',
  SESSION_COOKIE: 'canary-env-17-cookie',
  SSH_AUTH_SOCK: '/tmp/canary-env-18-agent.sock',
  VSCODE_GIT_IPC_HANDLE: '/tmp/canary-env-19-git-ipc.sock',
  HF_AUTH: 'canary-env-20-hf',
};

/** What the canaries share: a command's output must not contain it. */
export const CANARY = 'canary-env-';
