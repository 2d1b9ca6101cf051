/**
 * Floors of rooms: a room is a folder (or a single file) named by its path inside a root; a file belongs to the
 * room with the longest path that contains it; rooms are stacked in floors, and an import may stay on its floor or
 * go down, never up.
 */

/** The room of a path (relative to the floors' root), or undefined when no room holds it. */
export function roomOf(path: string, rooms: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const room of rooms) {
    const holds = path === room || path.startsWith(`${room}/`);
    if (holds && (best === undefined || room.length > best.length)) {
      best = room;
    }
  }
  return best;
}

/** What a graph does against floors: the imports that climb, and the files no room holds. */
export interface FloorCheck {
  /** "from (room, floor i) → to (room, floor j)" for every import to a higher floor. */
  readonly climbing: string[];
  readonly unplaced: string[];
}

/**
 * Checks a graph whose paths start with `prefix` (the floors' root); imports that leave the root are not the
 * floors' business.
 */
export function checkFloors(
  graph: ReadonlyMap<string, readonly string[]>,
  prefix: string,
  floors: readonly (readonly string[])[],
): FloorCheck {
  const rooms = floors.flat();
  const floorOf = new Map(floors.flatMap((floor, index) => floor.map((room) => [room, index] as const)));
  const place = (file: string): { room: string; floor: number } | undefined => {
    const room = roomOf(file.slice(prefix.length), rooms);
    return room === undefined ? undefined : { room, floor: floorOf.get(room) ?? -1 };
  };
  const climbing: string[] = [];
  const unplaced = new Set<string>();
  for (const [from, targets] of graph) {
    if (!from.startsWith(prefix)) {
      continue;
    }
    const source = place(from);
    if (source === undefined) {
      unplaced.add(from);
      continue;
    }
    for (const to of targets) {
      if (!to.startsWith(prefix)) {
        continue;
      }
      const target = place(to);
      if (target === undefined) {
        unplaced.add(to);
      } else if (target.floor > source.floor) {
        climbing.push(
          `${from} (${source.room}, floor ${source.floor}) imports ${to} (${target.room}, floor ${target.floor})`,
        );
      }
    }
  }
  return { climbing, unplaced: [...unplaced].sort() };
}
