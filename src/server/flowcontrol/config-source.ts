// Keeps the dispatcher's configuration in step with the stored FlowSchemas and PriorityLevelConfigurations
// (the consuming half of kube's APF config controller; the Dangling status is written by its own
// controller beside the API): two informers over our own stores, and one reconfiguration per burst of changes.
import { Informer, type InformerSource } from '../../controllers/informer.js';
import type { Dispatcher } from './dispatcher.js';
import type { FlowSchema, PriorityLevelConfiguration } from './types.js';

export class FlowControlConfigSource {
  private readonly levels: Informer;
  private readonly schemas: Informer;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly dispatcher: Dispatcher,
    priorityLevels: InformerSource,
    flowSchemas: InformerSource,
  ) {
    this.levels = new Informer(priorityLevels, { name: 'prioritylevelconfigurations' });
    this.schemas = new Informer(flowSchemas, { name: 'flowschemas' });
    const changed = { add: () => this.schedule(), update: () => this.schedule(), delete: () => this.schedule() };
    this.levels.addEventHandler(changed);
    this.schemas.addEventHandler(changed);
  }

  /** Resolves once both informers have listed and the dispatcher holds what they found. */
  async start(): Promise<void> {
    await Promise.all([this.levels.start(), this.schemas.start()]);
    this.apply();
  }

  stop(): void {
    this.stopped = true;
    this.levels.stop();
    this.schemas.stop();
  }

  /** Many changes in one turn (the ensurer's, a relist) make one reconfiguration. */
  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.apply();
    });
  }

  private apply(): void {
    // Stored objects are defaulted and validated: they have the shape the dispatcher reads.
    this.dispatcher.configure(this.levels.list() as unknown as PriorityLevelConfiguration[], this.schemas.list() as unknown as FlowSchema[]);
  }
}
