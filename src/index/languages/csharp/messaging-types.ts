/** What the C# messaging readers share: the topic fact they emit and where it goes. */
import type { ContractFact } from '../../facts.js';

export type TopicFact = Extract<ContractFact, { kind: 'topic_producer' | 'topic_consumer' }>;

/** Records a topic fact owned by the symbol enclosing its site (undefined: the file). */
export type TopicEmitter = (fact: TopicFact, owner: number | undefined) => void;
