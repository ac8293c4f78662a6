import { execFileSync } from 'node:child_process';
import { REPOSITORY_REDIRECT_VARIABLES } from '../../src/ops/shared/git/run-git.js';

/** Git for building test repositories, isolated from the caller's own git environment and identity. */
export function git(cwd: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of REPOSITORY_REDIRECT_VARIABLES) delete env[name];
  Object.assign(env, {
    GIT_AUTHOR_NAME: 'meshlens',
    GIT_AUTHOR_EMAIL: 'meshlens@example.invalid',
    GIT_COMMITTER_NAME: 'meshlens',
    GIT_COMMITTER_EMAIL: 'meshlens@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
  });
  return execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, env, encoding: 'utf8' }).trim();
}
