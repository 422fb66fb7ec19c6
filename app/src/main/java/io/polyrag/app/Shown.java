package io.polyrag.app;

import io.polyrag.core.AnswerUnavailableException;
import io.polyrag.core.model.Answer;
import io.polyrag.core.model.AnswerSource;
import io.polyrag.core.model.DocumentInfo;
import io.polyrag.core.model.Entity;
import io.polyrag.core.model.EntityHit;
import io.polyrag.core.model.SearchResponse;
import io.polyrag.core.model.Tenant;
import java.util.List;

/**
 * Stored names shown to their tenant: knowledge bases and entities are stored in the tenant's namespace
 * ({@code acme/handbook}); a tenant sees its own names ({@code handbook}). Nothing to do for the local tenant.
 */
final class Shown {
    private Shown() {
    }

    static SearchResponse of(Tenant t, SearchResponse r) {
        if (t.isLocal()) {
            return r;
        }
        return new SearchResponse(r.query(), r.tookMs(), r.modalities(), r.degraded(), r.hits().stream()
                .map(h -> h.toBuilder().knowledgeBase(t.show(h.knowledgeBase())).build()).toList(), r.warnings(),
                r.fusion());
    }

    static Answer of(Tenant t, Answer a) {
        if (t.isLocal()) {
            return a;
        }
        return new Answer(a.query(), a.answer(), a.mode(), a.note(), sources(t, a.sources()), a.tookMs(),
                a.degraded(), a.grounding(), a.route(), a.warnings());
    }

    static AnswerUnavailableException of(Tenant t, AnswerUnavailableException e) {
        return t.isLocal() ? e : new AnswerUnavailableException(e.getMessage(), sources(t, e.sources()), e.getCause());
    }

    private static List<AnswerSource> sources(Tenant t, List<AnswerSource> sources) {
        return sources.stream().map(s -> new AnswerSource(s.number(), s.documentId(), s.title(), s.uri(),
                t.show(s.knowledgeBase()), s.passages(), s.figures())).toList();
    }

    static DocumentInfo of(Tenant t, DocumentInfo d) {
        return t.isLocal() ? d : d.inKnowledgeBase(t.show(d.knowledgeBase()));
    }

    static EntityHit of(Tenant t, EntityHit h) {
        if (t.isLocal()) {
            return h;
        }
        Entity e = h.entity();
        return new EntityHit(new Entity(t.show(e.id()), t.show(e.name()), e.type(), e.aliases().stream()
                .map(t::show).toList()), h.mentions());
    }
}
