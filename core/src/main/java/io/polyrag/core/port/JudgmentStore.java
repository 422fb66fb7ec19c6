package io.polyrag.core.port;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Judged queries of a knowledge base (a query and the documents relevant to it, graded) and what was learned from
 * them: the fusion a tuning chose and the last evaluation, each as JSON. Keyed by the knowledge base's stored name, so
 * a tenant's judgments live in its namespace; they go when the knowledge base goes.
 */
public interface JudgmentStore {
    /**
     * One judged query.
     *
     * @param queryId the id the client gave it (or one made from its text)
     * @param query its text
     * @param relevant relevance grade (≥ 1; 0 judged not relevant) by document id
     */
    record Judgment(String queryId, String query, Map<String, Integer> relevant) {
        public Judgment {
            relevant = Map.copyOf(relevant);
        }
    }

    /** Adds judged queries; a query id already judged is replaced whole. */
    void putJudgments(String knowledgeBase, List<Judgment> judgments);

    /** The knowledge base's judged queries, by query id. */
    List<Judgment> judgments(String knowledgeBase);

    /** Deletes one judged query, or every one when {@code queryId} is null; how many queries went. */
    int deleteJudgments(String knowledgeBase, String queryId);

    /** The knowledge base's fusion tuning as JSON; empty when it was never tuned or the tuning was dropped. */
    Optional<String> tuning(String knowledgeBase);

    /** Keeps (null: drops) the knowledge base's fusion tuning. */
    void putTuning(String knowledgeBase, String json);

    /** The knowledge base's last evaluation as JSON. */
    Optional<String> evaluation(String knowledgeBase);

    void putEvaluation(String knowledgeBase, String json);
}
