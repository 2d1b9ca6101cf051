import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkFloors, roomOf } from './floors';
import { importGraph } from './import-graph';

// The engine's rooms say what they hold (issue #26): each room models one component or one layer of values, the
// rooms stack in floors, and an import never climbs. server/src/engine/README.md shows the same table.

const ROOT = join(__dirname, '..', '..');
const ENGINE = 'server/src/engine';

/** The engine's floors, bottom first; the rooms of one floor may import each other. */
const FLOORS: readonly (readonly string[])[] = [
  ['version.ts', 'model'],
  ['model/snapshot'],
  ['model/load'],
  ['sim', 'workloads', 'scheduler', 'admission'],
  // The components that act over simulated time.
  ['apiserver', 'kubelet', 'controllers', 'scheduler/queue'],
  // Clients of those components: kubectl drain, the cluster autoscaler.
  ['drain', 'autoscaler'],
  ['scenario'],
  ['simulate'],
  // Reads the simulation's reports: what an apply changes and what follows (foresight plan).
  ['plan'],
];

/** Sub-rooms a floor's room is split into; each keeps a README like the rooms of FLOORS. */
const SUB_ROOMS: readonly string[] = [
  ...readdirSync(join(ROOT, ENGINE, 'controllers'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `controllers/${entry.name}`),
  'scenario/state',
  'scenario/report',
];

/** How many TypeScript files one folder may hold before it must split into rooms. */
const MAX_FLAT_FILES = 20;

describe('the engine rooms', () => {
  test('no import (type imports included) climbs from a lower floor to a higher one', () => {
    const graph = importGraph(ROOT, [ENGINE], { withTypeImports: true });
    assert.ok(graph.size > 200, `read ${graph.size} files`);
    const check = checkFloors(graph, `${ENGINE}/`, FLOORS);
    assert.deepEqual(check.climbing, []);
  });

  test('every engine file is in a room of the floors', () => {
    const graph = importGraph(ROOT, [ENGINE], { withTypeImports: true });
    assert.deepEqual(checkFloors(graph, `${ENGINE}/`, FLOORS).unplaced, []);
  });

  test(`no folder of ${ENGINE} holds more than ${MAX_FLAT_FILES} TypeScript files flat`, () => {
    const counts = folders(join(ROOT, ENGINE)).map((folder) => ({
      folder: relative(ROOT, folder),
      files: readdirSync(folder).filter((name) => name.endsWith('.ts')).length,
    }));
    assert.ok(counts.length > 20, `read ${counts.length} folders`);
    assert.deepEqual(
      counts.filter((count) => count.files > MAX_FLAT_FILES),
      [],
    );
  });

  test('every room and sub-room keeps a README', () => {
    const rooms = [...FLOORS.flat().filter((room) => !room.endsWith('.ts')), ...SUB_ROOMS];
    assert.ok(SUB_ROOMS.length >= 11, `controllers/ has ${SUB_ROOMS.length - 2} sub-rooms`);
    assert.deepEqual(
      rooms.filter((room) => !existsSync(join(ROOT, ENGINE, room, 'README.md'))),
      [],
    );
  });
});

describe('the floor check', () => {
  const floors = [
    ['low', 'side'],
    ['high', 'low/upper'],
  ];
  const cases: { name: string; graph: [string, string[]][]; climbing: number; unplaced: string[] }[] = [
    {
      name: 'an import from a lower floor to a higher one is reported',
      graph: [['e/low/a.ts', ['e/high/b.ts']]],
      climbing: 1,
      unplaced: [],
    },
    {
      name: 'imports down and across one floor are allowed',
      graph: [
        ['e/high/b.ts', ['e/low/a.ts']],
        ['e/low/a.ts', ['e/side/c.ts']],
      ],
      climbing: 0,
      unplaced: [],
    },
    {
      name: 'a sub-room on a higher floor than its folder counts as that floor (the longest room path wins)',
      graph: [['e/low/a.ts', ['e/low/upper/d.ts']]],
      climbing: 1,
      unplaced: [],
    },
    {
      name: 'a file outside every room is listed; imports that leave the root are ignored',
      graph: [
        ['e/elsewhere/x.ts', ['e/low/a.ts']],
        ['e/low/a.ts', ['protocol/p.ts']],
      ],
      climbing: 0,
      unplaced: ['e/elsewhere/x.ts'],
    },
  ];
  for (const entry of cases) {
    test(entry.name, () => {
      const check = checkFloors(new Map(entry.graph), 'e/', floors);
      assert.equal(check.climbing.length, entry.climbing, check.climbing.join('\n'));
      assert.deepEqual(check.unplaced, entry.unplaced);
    });
  }

  test('a file belongs to the room with the longest path that holds it, and no room holds a mere prefix', () => {
    const rooms = ['scheduler', 'scheduler/queue', 'version.ts'];
    assert.equal(roomOf('scheduler/queue/scheduler-loop.ts', rooms), 'scheduler/queue');
    assert.equal(roomOf('scheduler/framework/status.ts', rooms), 'scheduler');
    assert.equal(roomOf('version.ts', rooms), 'version.ts');
    assert.equal(roomOf('schedulers/x.ts', rooms), undefined);
  });
});

/** A folder and every folder under it. */
function folders(folder: string): string[] {
  return [
    folder,
    ...readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => folders(join(folder, entry.name))),
  ];
}
