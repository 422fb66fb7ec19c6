package io.polyrag.app;

import io.polyrag.app.api.TextIngest;
import io.polyrag.core.ConflictException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.NotFoundException;
import io.polyrag.core.QuotaExceededException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.IngestReport;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SearchHit;
import io.polyrag.core.model.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The end-to-end self-test a tenant (or an agent) can run: index a small text into a knowledge base of its own, find
 * it, delete it everywhere, and make sure it is gone. Each step is timed and reported; the knowledge base is dropped
 * whatever happens, so a check leaves nothing behind.
 */
public final class SampleCheck {
    private SampleCheck() {
    }

    /**
     * One step of the check.
     *
     * @param name {@code ingest}, {@code search}, {@code delete} or {@code gone}
     * @param ok whether it did what it should
     * @param tookMs wall time
     * @param detail what it saw
     */
    public record Step(String name, boolean ok, long tookMs, String detail) {
    }

    /**
     * What the check found.
     *
     * @param ok every step passed
     * @param knowledgeBase the throw-away knowledge base it used (dropped again)
     * @param documentId the sample document's id
     * @param steps each step, in order
     */
    public record Result(boolean ok, String knowledgeBase, String documentId, List<Step> steps) {
    }

    static Result run(Polyrag.TenantFacets facets) {
        String token = "zq" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String kb = "sample-check-" + token;
        String text = "polyrag sample check " + token + ". The lighthouse keeper logs the tide at dawn; the logbook "
                + "names the check " + token + ".";
        List<Step> steps = new ArrayList<>();
        String documentId = null;
        try {
            long t0 = System.nanoTime();
            IngestReport report = facets.ingest().text(new TextIngest(text, "polyrag sample check", "sample-check:"
                    + token, "text", KnowledgeBase.of(kb), true));
            documentId = report.indexed().isEmpty() ? null : report.indexed().getFirst().documentId();
            steps.add(new Step("ingest", report.added() == 1 && documentId != null, ms(t0), report.added()
                    + " added, " + report.chunks() + " chunks" + (report.errors().isEmpty() ? "" : ", errors: "
                    + report.errors())));
            if (documentId == null) {
                return new Result(false, kb, null, steps);
            }
            long t1 = System.nanoTime();
            List<SearchHit> hits = search(facets, token, kb);
            String id = documentId;
            boolean found = !hits.isEmpty() && hits.getFirst().documentId().equals(id);
            steps.add(new Step("search", found, ms(t1), found ? "found at rank 1 by "
                    + String.join(", ", hits.getFirst().sources().keySet()) : hits.size() + " hits, none first of it"));
            long t2 = System.nanoTime();
            int deleted = facets.documents().delete(List.of(documentId));
            steps.add(new Step("delete", deleted == 1, ms(t2), deleted + " deleted from the catalog and every store"));
            long t3 = System.nanoTime();
            List<SearchHit> after = search(facets, token, kb);
            steps.add(new Step("gone", after.isEmpty(), ms(t3), after.isEmpty() ? "no search finds it"
                    : after.size() + " hits still found"));
        } catch (QuotaExceededException e) {
            throw e; // a 429 with its Retry-After, as any request over the quota gets, not a check that "failed"
        } catch (InvalidInputException | NotFoundException | ConflictException | UnavailableException e) {
            steps.add(new Step("error", false, 0, e.getMessage()));
        } catch (RuntimeException e) {
            // A store's or driver's own words (addresses, SQL, folders) are the operator's: the log has them.
            String id = UUID.randomUUID().toString().substring(0, 8);
            System.getLogger(SampleCheck.class.getName()).log(System.Logger.Level.WARNING, "sample check failed, "
                    + "error id " + id, e);
            steps.add(new Step("error", false, 0, "internal error; the server log has the details under error id "
                    + id));
        } finally {
            try {
                facets.knowledgeBases().delete(kb);
            } catch (RuntimeException e) {
                // not found: nothing was created
            }
        }
        return new Result(!steps.isEmpty() && steps.stream().allMatch(Step::ok) && steps.size() == 4, kb, documentId,
                steps);
    }

    private static List<SearchHit> search(Polyrag.TenantFacets facets, String token, String kb) {
        return facets.search().run(new SearchRequest(token, 3, List.of(kb), Set.of(), null)).hits();
    }

    private static long ms(long since) {
        return (System.nanoTime() - since) / 1_000_000;
    }
}
