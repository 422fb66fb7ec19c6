package io.polyrag.app;

import io.polyrag.retrieval.AnswerService;
import io.polyrag.retrieval.Condenser;
import io.polyrag.retrieval.HybridSearcher;

/**
 * The read side a search facet calls: the searcher (every leg, fused), the answerer over it, and the condenser that
 * turns a conversation's follow-up into a question that stands alone.
 */
record Retrieval(HybridSearcher searcher, AnswerService answers, Condenser condenser) {
}
