/**
 * The timeline panel's page: lays out the views, owns the playhead and the selection, handles the host's
 * messages, and renders on animation frames (only when something changed, or every frame while playing).
 * The view state (folder, playhead, speed, selection, filter) is saved with setState so that it survives a
 * reload of the panel.
 */
import type { HostToWebviewMessage, PanelFolder, PanelWorkload } from '../protocol/webview-messages';
import { isPodOfWorkload } from '../protocol/webview-messages';
import { h, replaceChildren, setText, toggleClass } from './dom';
import { visibleText } from './format';
import { Playback } from './model/playback';
import { StateSeeker } from './model/state-seeker';
import { Timeline } from './model/timeline';
import type { HostChannel } from './vscode-api';
import { EmptyNotice } from './views/empty-notice';
import { HeaderView } from './views/header';
import { EventListView } from './views/event-list';
import { LanesView } from './views/lanes';
import { laneLegend } from './views/legend';
import { PendingView } from './views/pending';
import { PodDetailsView } from './views/pod-details';
import { RolloutsView } from './views/rollouts';
import { ScenarioView } from './views/scenario';
import { SummaryView } from './views/summary';
import { TransportView } from './views/transport';

/** Wall-clock seconds between two saves of the view state while playing. */
const SAVE_INTERVAL_MS = 1000;
/** The longest frame gap played as it is (a hidden panel resumes without a jump). */
const MAX_FRAME_SECONDS = 0.25;

/** The page. */
export class App {
  private timeline: Timeline | null = null;
  private seeker: StateSeeker | null = null;
  private playback: Playback | null = null;
  private folder: PanelFolder | null = null;
  private selectedKey: string | null;
  /** A workload to select once a simulation has it (the Replay lens). */
  private focus: PanelWorkload | null = null;
  private eventFilter: string;
  private speed: number;
  private isFrameRequested = false;
  private lastFrame = 0;
  private lastSave = 0;
  private readonly header: HeaderView;
  private readonly banner = h('div', { className: 'banner', attrs: { role: 'status' } });
  private readonly body: HTMLElement;
  private readonly summary = new SummaryView();
  private readonly scenario: ScenarioView;
  private readonly emptyNotice: EmptyNotice;
  private readonly transport: TransportView;
  private readonly rollouts = new RolloutsView();
  private readonly pending: PendingView;
  private readonly lanes: LanesView;
  private readonly events: EventListView;
  private readonly details: PodDetailsView;

  constructor(
    private readonly root: HTMLElement,
    private readonly host: HostChannel,
  ) {
    const saved = host.savedState();
    this.selectedKey = saved?.selectedPod ?? null;
    this.eventFilter = saved?.eventFilter ?? '';
    this.speed = saved?.speed ?? 10;
    const render = (): void => this.requestRender();
    this.transport = new TransportView({
      togglePlay: () => this.togglePlay(),
      stepPrevious: () => this.act((playback) => playback.stepPrevious()),
      stepNext: () => this.act((playback) => playback.stepNext()),
      seekTime: (time) => this.act((playback) => playback.seekTime(time)),
      setSpeed: (speed) => this.act((playback) => playback.setSpeed(speed)),
    });
    this.scenario = new ScenarioView((event) => this.act((playback) => playback.seekEvent(event)));
    const select = (pod: number): void => this.selectPod(pod);
    this.pending = new PendingView(select);
    this.lanes = new LanesView(select, render);
    this.events = new EventListView(
      (event) => this.act((playback) => playback.seekEvent(event)),
      render,
      (filter) => {
        this.eventFilter = filter;
        this.save();
        this.requestRender();
      },
    );
    this.details = new PodDetailsView({
      jumpToEvent: (event) => this.act((playback) => playback.seekEvent(event)),
      revealPod: (pod) => host.post({ type: 'revealPod', namespace: pod.namespace, name: pod.name }),
      clearSelection: () => this.selectPod(-1),
    });
    this.header = new HeaderView(() => host.post({ type: 'reload' }));
    this.emptyNotice = new EmptyNotice((index) => host.post({ type: 'openOverlay', index }));
    this.body = h(
      'div',
      { className: 'body' },
      h(
        'main',
        { className: 'cluster', attrs: { 'aria-label': 'Cluster' } },
        this.emptyNotice.element,
        this.rollouts.element,
        this.pending.element,
        laneLegend(),
        this.lanes.element,
      ),
      h('aside', { className: 'side' }, this.events.element, this.details.element),
    );
    root.classList.add('app');
    replaceChildren(
      root,
      this.header.element,
      this.summary.element,
      this.scenario.element,
      this.transport.element,
      this.banner,
      this.body,
    );
    toggleClass(root, 'is-empty', true);
    setText(this.banner, 'Waiting for the simulation…');
    document.addEventListener('keydown', (event) => this.onKey(event));
  }

  /** Handles a message from the host. */
  handleMessage(message: HostToWebviewMessage): void {
    switch (message.type) {
      case 'loading':
        setText(this.banner, `Simulating ${visibleText(message.folder.name)}…`);
        toggleClass(this.banner, 'is-error', false);
        this.root.setAttribute('aria-busy', 'true');
        break;
      case 'simulation':
        this.show(message.folder, new Timeline(message.report), message.isUpdate);
        this.applyFocus();
        break;
      case 'focusWorkload':
        this.focus = message.workload;
        this.applyFocus();
        break;
      case 'unavailable':
        setText(this.banner, visibleText(message.message));
        toggleClass(this.banner, 'is-error', message.isError);
        toggleClass(this.root, 'is-empty', this.timeline === null);
        this.root.removeAttribute('aria-busy');
        break;
    }
  }

  private show(folder: PanelFolder, timeline: Timeline, isUpdate: boolean): void {
    const saved = this.host.savedState();
    const isSameFolder =
      isUpdate ||
      (this.folder === null && saved?.folderUri === folder.uri) ||
      this.folder?.uri === folder.uri;
    this.folder = folder;
    this.timeline = timeline;
    this.seeker = new StateSeeker(timeline);
    if (this.playback !== null && isSameFolder) {
      this.playback.replaceTimeline(timeline);
    } else {
      const wasPlaying = this.playback?.isPlaying ?? false;
      this.playback = new Playback(timeline);
      this.playback.setSpeed(this.speed);
      if (isSameFolder && saved !== null) {
        this.playback.restore(saved.time, saved.cursor);
      } else {
        this.playback.seekTime(timeline.duration);
        this.selectedKey = null;
      }
      this.playback.isPlaying = wasPlaying && isSameFolder;
    }
    this.header.show(folder, timeline);
    const report = timeline.report;
    setText(
      this.banner,
      timeline.events.length === 0
        ? 'This report has no timeline: it shows where each pod lands, without simulated time.'
        : '',
    );
    toggleClass(this.banner, 'is-error', false);
    toggleClass(this.root, 'is-empty', false);
    this.root.removeAttribute('aria-busy');
    this.transport.setTimeline(timeline);
    this.scenario.setTimeline(timeline);
    this.emptyNotice.setReport(report, folder.name);
    this.rollouts.setTimeline(timeline);
    this.pending.setTimeline(timeline);
    this.lanes.setTimeline(timeline);
    this.events.setTimeline(timeline, this.eventFilter);
    this.save();
    this.requestRender();
  }

  private act(change: (playback: Playback) => void): void {
    if (this.playback !== null) {
      change(this.playback);
      this.speed = this.playback.speed;
      this.save();
      this.requestRender();
    }
  }

  private togglePlay(): void {
    this.act((playback) => (playback.isPlaying ? playback.pause() : playback.play()));
    this.lastFrame = 0;
  }

  /**
   * Selects the first pod of the workload the Replay lens named (a pod of the new template first, mid-rollout),
   * once a simulation that has it is shown; until then the request waits.
   */
  private applyFocus(): void {
    const focus = this.focus;
    if (focus === null || this.timeline === null) {
      return;
    }
    const pods = this.timeline.pods.filter((pod) => isPodOfWorkload(pod, focus));
    const first = pods.find((pod) => pod.revision !== 'old' && pod.report !== null) ?? pods[0];
    if (first !== undefined) {
      this.focus = null;
      this.selectPod(first.index);
    }
  }

  private selectPod(pod: number): void {
    const entry = pod >= 0 ? this.timeline?.pods[pod] : undefined;
    this.selectedKey = entry?.key ?? null;
    const node =
      this.seeker !== null && entry !== undefined && this.playback !== null
        ? (this.seeker.seek(this.playback.cursor).podNode[entry.index] ?? -1)
        : -1;
    if (node >= 0) {
      this.lanes.revealNode(node);
    }
    this.save();
    this.requestRender();
  }

  private onKey(event: KeyboardEvent): void {
    const target = event.target instanceof HTMLElement ? event.target : null;
    const isControl = target !== null && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName);
    if (event.key === ' ' && !isControl && !event.repeat) {
      event.preventDefault();
      this.togglePlay();
    } else if (event.key === 'Escape' && this.selectedKey !== null) {
      this.selectPod(-1);
    }
  }

  /** Asks for a render on the next animation frame. */
  requestRender(): void {
    if (!this.isFrameRequested) {
      this.isFrameRequested = true;
      requestAnimationFrame((now) => this.frame(now));
    }
  }

  private frame(now: number): void {
    this.isFrameRequested = false;
    const playback = this.playback;
    if (playback?.isPlaying === true) {
      const seconds = this.lastFrame === 0 ? 0 : Math.min(MAX_FRAME_SECONDS, (now - this.lastFrame) / 1000);
      this.lastFrame = now;
      playback.advance(seconds);
      if (now - this.lastSave > SAVE_INTERVAL_MS || !playback.isPlaying) {
        this.save();
        this.lastSave = now;
      }
    } else {
      this.lastFrame = 0;
    }
    const started = performance.now();
    this.render();
    performance.measure('foresight-render', { start: started, end: performance.now() });
    if (playback?.isPlaying === true) {
      this.requestRender();
    }
  }

  private render(): void {
    const { timeline, seeker, playback } = this;
    if (timeline === null || seeker === null || playback === null) {
      return;
    }
    const state = seeker.seek(playback.cursor);
    const selected = this.selectedKey === null ? -1 : (timeline.podByKey(this.selectedKey)?.index ?? -1);
    this.root.dataset['time'] = playback.time.toFixed(3);
    this.root.dataset['cursor'] = String(playback.cursor);
    this.root.dataset['playing'] = String(playback.isPlaying);
    // The event list first: it may scroll, which is cheap only while the layout is clean (before other writes).
    this.events.update(playback.cursor);
    this.summary.update(timeline, state, playback.time);
    this.transport.update(playback);
    this.rollouts.update(playback.cursor, playback.time);
    this.pending.update(state, selected);
    this.lanes.update(state, selected);
    this.details.update(timeline, state, selected);
  }

  private save(): void {
    const playback = this.playback;
    this.host.saveState({
      folderUri: this.folder?.uri ?? null,
      time: playback?.time ?? 0,
      cursor: playback?.cursor ?? 0,
      speed: playback?.speed ?? this.speed,
      selectedPod: this.selectedKey,
      eventFilter: this.eventFilter,
    });
  }
}
