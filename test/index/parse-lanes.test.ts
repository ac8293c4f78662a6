import { describe, expect, test } from 'vitest';
import { LaneOwners, LaneQueues, makeBatches, workByLanguage } from '../../src/index/parse/lanes.js';
import type { ParseJob } from '../../src/index/parse/parser.js';

const job = (language: string, bytes = 10): ParseJob => ({
  path: `${language}-${bytes}`,
  language,
  source: 'x'.repeat(bytes),
});

describe('batches', () => {
  test('hold files of one language, in job order, languages in the order they first appear', () => {
    const jobs = [job('go'), job('python'), job('go'), job('java'), job('python'), job('go')];
    expect(makeBatches(jobs, 2).map((b) => [b.language, b.indexes, b.bytes])).toEqual([
      ['go', [0, 2, 5], 30],
      ['python', [1, 4], 20],
      ['java', [3], 10],
    ]);
  });

  test('are cut at 16 to 64 files and at 1 MB', () => {
    const many = Array.from({ length: 300 }, () => job('go'));
    // 300 files for 2 threads × 4 tasks: 38 per batch.
    expect(makeBatches(many, 2).map((b) => b.indexes.length)).toEqual([38, 38, 38, 38, 38, 38, 38, 34]);
    expect(makeBatches(many.slice(0, 20), 8).map((b) => b.indexes.length)).toEqual([16, 4]);
    const big = [job('go', 600_000), job('go', 600_000), job('go', 10)];
    expect(makeBatches(big, 2).map((b) => b.indexes)).toEqual([[0], [1, 2]]);
  });
});

describe('lane owners', () => {
  test('balance the bytes: the heaviest language first, each to the lane with the least so far', () => {
    const owners = new LaneOwners(2);
    owners.assign(
      workByLanguage([
        { language: 'java', bytes: 50 },
        { language: 'go', bytes: 40 },
        { language: 'python', bytes: 30 },
        { language: 'rust', bytes: 20 },
        { language: 'java', bytes: 10 },
      ]),
    );
    // java 60 → lane 0; go 40 → lane 1; python 30 → lane 1 (40 < 60); rust 20 → lane 0 (60 < 70).
    expect(owners.languagesOf(0)).toEqual(['java', 'rust']);
    expect(owners.languagesOf(1)).toEqual(['go', 'python']);
  });

  test('keep their languages for later runs and give a new language to the lane with the least work', () => {
    const owners = new LaneOwners(2);
    owners.assign(new Map([['java', 100]]));
    owners.assign(
      new Map([
        ['go', 500],
        ['java', 1],
        ['kotlin', 5],
      ]),
    );
    expect(owners.ownerOf('java')).toBe(0);
    expect(owners.ownerOf('go')).toBe(1);
    // Lane 0 had 100, lane 1 had 500: kotlin goes to lane 0.
    expect(owners.ownerOf('kotlin')).toBe(0);
    expect(() => owners.ownerOf('ruby')).toThrow('no lane owns ruby: assign it first');
  });
});

describe('lane queues', () => {
  const setup = () => {
    const owners = new LaneOwners(2);
    owners.assign(
      new Map([
        ['go', 100],
        ['python', 60],
        ['java', 50],
      ]),
    );
    // go → 0; python → 1; java → 1.
    const jobs = [
      ...Array.from({ length: 40 }, () => job('go')),
      ...Array.from({ length: 20 }, () => job('python')),
      job('java'),
    ];
    return { queues: new LaneQueues(makeBatches(jobs, 1), owners), owners };
  };

  test('give each lane its own batches first', () => {
    const { queues } = setup();
    const drain = (lane: number) => {
      const taken: string[] = [];
      for (let batch = queues.takeOwn(lane); batch; batch = queues.takeOwn(lane))
        taken.push(`${batch.language}×${batch.indexes.length}`);
      return taken;
    };
    // 61 files for one thread: batches of 16.
    expect(drain(1)).toEqual(['python×16', 'python×4', 'java×1']);
    expect(queues.empty).toBe(false);
    expect(drain(0)).toEqual(['go×16', 'go×16', 'go×8']);
    expect(queues.empty).toBe(true);
  });

  test('let an idle lane take from the end of a busy lane’s queue, a grammar it holds first', () => {
    const owners = new LaneOwners(2);
    owners.assign(
      new Map([
        ['go', 100],
        ['python', 60],
        ['java', 50],
      ]),
    );
    // Lane 1's queue: python×16, python×4 (20 files of 20 KB: 400 KB queued), java×1 (300 KB).
    const jobs = [...Array.from({ length: 20 }, () => job('python', 20_000)), job('java', 300_000)];
    const queues = new LaneQueues(makeBatches(jobs, 1), owners);
    const steal = (holds: string[]) => {
      const batch = queues.steal(new Set([1]), new Set(holds));
      return batch && `${batch.language}×${batch.indexes.length}`;
    };
    expect(steal(['python'])).toBe('python×4');
    expect(steal(['go'])).toBe('java×1');
    // 320 KB of python left: worth a grammar of its own.
    expect(steal(['go'])).toBe('python×16');
    expect(steal(['go'])).toBeUndefined();
  });

  test('leave a busy lane a small tail of a grammar the idle lane does not hold', () => {
    const owners = new LaneOwners(2);
    owners.assign(
      new Map([
        ['go', 100],
        ['csharp', 60],
        ['tsx', 50],
        ['markdown', 40],
      ]),
    );
    // go, markdown → lane 0; csharp, tsx → lane 1; then javascript → lane 1 (110 bytes against 140).
    const jobs = [
      ...Array.from({ length: 9 }, () => job('csharp', 3_000)),
      ...Array.from({ length: 6 }, () => job('javascript', 2_500)),
      job('markdown', 5_000),
    ];
    owners.assign(new Map([['javascript', 15_000]]));
    const queues = new LaneQueues(makeBatches(jobs, 2), owners);
    const stolen = (holds: string[], busy: number[]) => queues.steal(new Set(busy), new Set(holds))?.language;
    // 27 KB of C# is less than compiling its grammar a second time: nothing to take.
    expect(owners.ownerOf('javascript')).toBe(1);
    expect(stolen(['go'], [1])).toBeUndefined();
    // JavaScript is parsed by the TSX grammar, which a lane holding tsx already has.
    expect(stolen(['tsx'], [1])).toBe('javascript');
    // A language without a grammar costs nothing to take.
    expect(stolen([], [0])).toBe('markdown');
  });

  test('never take from an idle lane: its owner starts it, so one batch never starts two workers', () => {
    const { queues } = setup();
    expect(queues.steal(new Set(), new Set(['go', 'python', 'java']))).toBeUndefined();
    // With both lanes busy, the one with more bytes queued is robbed: lane 0 has 40 go files of 10 bytes.
    expect(queues.steal(new Set([0, 1]), new Set(['go', 'python', 'java']))?.language).toBe('go');
  });
});
