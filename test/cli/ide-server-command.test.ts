import { describe, expect, test } from 'vitest';
import { mergeServerCommand, type OwnedCommand } from '../../src/cli/ide/server-command.js';

const relative: OwnedCommand = {
  command: 'node',
  launch: ['${workspaceFolder}/node_modules/meshlens/dist/meshlens.js'],
  workspace: ['--workspace', '${workspaceFolder}'],
};
const onPath: OwnedCommand = { command: 'meshlens', launch: [], workspace: [] };

describe('mergeServerCommand: meshlens owns the launcher, `serve` and --workspace; every other argument is the user’s', () => {
  test('a new entry is the launcher, serve and the workspace arguments', () => {
    expect(mergeServerCommand(relative)).toEqual({
      command: 'node',
      args: [
        '${workspaceFolder}/node_modules/meshlens/dist/meshlens.js',
        'serve',
        '--workspace',
        '${workspaceFolder}',
      ],
    });
  });

  test('an old absolute entry keeps its user arguments, Node flags and global options in place', () => {
    const previous = {
      command: '/usr/local/bin/node',
      args: [
        '--max-old-space-size=8192',
        '/home/a/meshlens/dist/meshlens.js',
        '--config',
        'alt.toml',
        'serve',
        '--workspace=/home/a/ws',
        '--watch',
        '--surface',
        'flat',
      ],
    };
    expect(mergeServerCommand(relative, previous)).toEqual({
      command: 'node',
      args: [
        '--max-old-space-size=8192',
        '${workspaceFolder}/node_modules/meshlens/dist/meshlens.js',
        '--config',
        'alt.toml',
        'serve',
        '--workspace',
        '${workspaceFolder}',
        '--watch',
        '--surface',
        'flat',
      ],
    });
  });

  test('an npx entry becomes the meshlens on PATH: its npx flags go, the options after the package stay', () => {
    const previous = {
      command: 'npx',
      args: ['-y', 'meshlens@0.1.0', 'serve', '--workspace', '.', '--watch'],
    };
    expect(mergeServerCommand(onPath, previous)).toEqual({ command: 'meshlens', args: ['serve', '--watch'] });
  });

  test('Node flags are dropped only when the command is no longer node', () => {
    const previous = { command: 'node', args: ['--inspect', '/x/meshlens.js', 'serve'] };
    expect(mergeServerCommand(onPath, previous)).toEqual({ command: 'meshlens', args: ['serve'] });
  });

  test('an entry without `serve`, or whose arguments are not strings, is not meshlens’s to rewrite', () => {
    expect(
      mergeServerCommand(relative, { command: 'docker', args: ['run', '-i', 'meshlens-image'] }),
    ).toBeUndefined();
    expect(mergeServerCommand(relative, { command: 'node', args: 'serve' })).toBeUndefined();
    expect(mergeServerCommand(relative, { args: ['serve'] })).toBeUndefined();
  });
});
