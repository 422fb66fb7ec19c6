package io.polyrag.app;

import io.polyrag.app.api.Limits;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.KnowledgeBase;
import java.util.List;

/** The indexed documents: list them, delete them (from the catalog and every store). */
public final class Documents {
    private final Components components;

    Documents(Components components) {
        this.components = components;
    }

    /** A page of visible documents, by uri; {@code knowledgeBase} null for every knowledge base. */
    public List<DocumentInfo> list(KnowledgeBase knowledgeBase, int offset, int limit) {
        if (offset < 0 || limit < 1 || limit > Limits.MAX_PAGE) {
            throw new InvalidInputException("offset must be >= 0 and limit in [1, " + Limits.MAX_PAGE + "], got "
                    + offset + " and " + limit);
        }
        return components.catalog.documents(knowledgeBase == null ? io.polyrag.core.model.SearchScope.ALL
                : knowledgeBase.asScope(), offset, limit);
    }

    /** Deletes documents from the catalog and every store; returns how many were visible. */
    public int delete(List<String> documentIds) {
        return components.pipeline.delete(documentIds).size();
    }
}
