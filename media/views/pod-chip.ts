/**
 * A pod as a chip: a button coloured by its display phase, outlined by its ReplicaSet generation (old revisions
 * dashed, new ones solid), labelled with its name. Lanes and the Pending area use the same chip; a click on any
 * element with data-pod selects that pod (one delegated listener per area).
 */
import { h } from '../dom';
import { chipLabel, visibleText } from '../format';
import { phaseName } from '../model/phases';
import type { PodEntry } from '../model/timeline';

/**
 * A chip for a pod in a phase, labelled with its name as `label` shortens it to the chip's width (the full name is
 * its tooltip and accessible name).
 */
export function podChip(
  pod: PodEntry,
  phase: number,
  isSelected: boolean,
  label: (name: string) => string = chipLabel,
): HTMLButtonElement {
  const phaseText = phaseName(phase) ?? 'Absent';
  const name = visibleText(pod.name);
  const revision = pod.revision === null ? '' : `, ${pod.revision} revision`;
  const chip = h('button', {
    className: `chip phase-${phaseText.toLowerCase()}${pod.revision === null ? '' : ` rev-${pod.revision}`}${
      isSelected ? ' is-selected' : ''
    }`,
    text: label(name),
    attrs: {
      type: 'button',
      title: `${visibleText(pod.key)} · ${phaseText}`,
      'aria-label': `Pod ${name}, ${phaseText}${revision}`,
      'aria-pressed': isSelected ? 'true' : 'false',
    },
    dataset: { pod: String(pod.index), phase: phaseText },
  });
  return chip;
}

/** A "+N more" marker for pods that do not fit. */
export function moreChip(count: number): HTMLElement {
  return h('span', { className: 'chip more', text: `+${count}`, attrs: { title: `${count} more pods` } });
}

/** Calls `select` with the pod index of the chip under a click, if any. */
export function onChipClick(area: HTMLElement, select: (pod: number) => void): void {
  area.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-pod]') : null;
    const pod = Number(target?.dataset['pod']);
    if (target !== null && Number.isInteger(pod)) {
      select(pod);
    }
  });
}
