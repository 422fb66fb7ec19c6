// style(file): the one contract every catalog backend runs whole, in one suite so no backend can inherit part of it
package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.model.Chunk;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.DocumentDraft;
import io.polyrag.core.model.DocumentMeta;
import io.polyrag.core.model.DocumentStatus;
import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.KnowledgeBaseInfo;
import io.polyrag.core.model.Figure;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.Source;
import io.polyrag.core.model.SyncItem;
import io.polyrag.core.model.VersionRecords;
import io.polyrag.core.port.Catalog;
import io.polyrag.core.port.JobStore;
import io.polyrag.core.port.JudgmentStore;
import io.polyrag.core.port.UsageStore;
import io.polyrag.core.spi.CatalogProvider.CatalogAndJobs;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract of the catalog and job store; an implementation's test is a short subclass. */
public abstract class CatalogContract {
    @TempDir
    protected Path dir;

    private final List<CatalogAndJobs> opened = new ArrayList<>();

    /** The catalog's clock: tests move it instead of sleeping. */
    protected final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

    /** Opens the catalog in {@code dir}, taking its time from {@code clock}. */
    protected abstract CatalogAndJobs openCatalog(Path dir, Clock clock);

    protected CatalogAndJobs openCatalog(Path dir) {
        return openCatalog(dir, clock);
    }

    protected CatalogAndJobs open() {
        CatalogAndJobs c = openCatalog(dir);
        opened.add(c);
        return c;
    }

    @AfterEach
    void closeAll() {
        opened.forEach(CatalogAndJobs::close);
    }

    protected static DocumentDraft draft(String id, String kb, long version, String... texts) {
        List<Chunk> chunks = IntStream.range(0, texts.length)
                .mapToObj(i -> Chunk.builder(id, version, i).text(texts[i]).headingPath(List.of("Heading"))
                        .offsets(i * 10, i * 10 + texts[i].length()).tokenCount(3).embeddingModel("model-x")
                        .location("page " + (i + 1)).build())
                .toList();
        return new DocumentDraft(id, kb, "file:///" + id + ".md", "Title " + id, "text/markdown", "hash-" + version,
                42, chunks);
    }

    @Test
    void a_staged_version_is_invisible_until_published() {
        CatalogAndJobs c = open();
        long v = c.nextVersion("d1");
        assertThat(v).isEqualTo(1);
        c.stage(draft("d1", "kb", v, "alpha", "beta"), v);
        String id0 = Chunk.idOf("d1", v, 0);
        assertThat(c.resolve(List.of(id0), SearchScope.ALL)).isEmpty();
        assertThat(c.pendingVersions()).containsExactly(new DocumentVersion("d1", 1));
        assertThat(c.publish(new DocumentVersion("d1", v))).isEmpty();
        var resolved = c.resolve(List.of(id0, "unknown"), SearchScope.ALL);
        assertThat(resolved).containsOnlyKeys(id0);
        assertThat(resolved.get(id0).chunk().text()).isEqualTo("alpha");
        assertThat(resolved.get(id0).chunk().headingPath()).containsExactly("Heading");
        assertThat(resolved.get(id0).chunk().embeddingModel()).isEqualTo("model-x");
        assertThat(resolved.get(id0).chunk().location()).isEqualTo("page 1");
        assertThat(resolved.get(id0).title()).isEqualTo("Title d1");
        assertThat(resolved.get(id0).knowledgeBase()).isEqualTo("kb");
        assertThat(c.pendingVersions()).isEmpty();
        var doc = c.document("d1").orElseThrow();
        assertThat(doc.visibleVersion()).isEqualTo(1);
        assertThat(doc.chunkCount()).isEqualTo(2);
        assertThat(doc.contentHash()).isEqualTo("hash-1");
    }

    /** A NUL in a title (a PDF's metadata decoded in the wrong encoding) is left out, not a failed batch. */
    @Test
    void a_nul_in_a_title_is_left_out() {
        CatalogAndJobs c = open();
        long v = c.nextVersion("d1");
        DocumentDraft d = draft("d1", "kb", v, "alpha");
        c.stage(new DocumentDraft(d.id(), d.knowledgeBase(), d.uri(), "T\u0000i\u0000tle", d.mediaType(),
                d.contentHash(), 42, d.chunks()), v);
        assertThat(c.publish(new DocumentVersion("d1", v))).isEmpty();
        assertThat(c.document("d1").orElseThrow().title()).isEqualTo("Title");
    }

    @Test
    void a_figure_chunk_keeps_its_figure_and_figures_lists_those_of_visible_versions_only() {
        CatalogAndJobs c = open();
        DocumentDraft text = draft("d1", "kb", 1, "As Figure 1 shows, sales rose.", "More prose.");
        var figure = new Figure(1, "Figure 1: Sales | by region", "image/png", 640, 400,
                List.of(0, 1), new Figure.Box(72, 100.5, 320, 200));
        List<Chunk> chunks = new ArrayList<>(text.chunks());
        chunks.add(Chunk.builder("d1", 1, 2).text("Figure 1: Sales | by region").headingPath(List.of("Heading"))
                .offsets(30, 30).tokenCount(8).embeddingModel("model-x").location("page 1").figure(figure).build());
        c.stage(new DocumentDraft("d1", "kb", text.uri(), text.title(), text.mediaType(), text.contentHash(), 42,
                chunks), 1);
        var d1 = new DocumentVersion("d1", 1);
        assertThat(c.figures(List.of(d1))).as("pending: not visible").isEmpty();
        c.publish(d1);
        c.stage(draft("d2", "kb", 1, "no figures here"), 1);
        c.publish(new DocumentVersion("d2", 1));
        List<Chunk> found = c.figures(List.of(d1, new DocumentVersion("d2", 1), new DocumentVersion("d1", 7)));
        assertThat(found).hasSize(1);
        assertThat(found.getFirst().kind()).isEqualTo(ChunkKind.FIGURE);
        assertThat(found.getFirst().figure()).isEqualTo(figure);
        assertThat(found.getFirst().location()).isEqualTo("page 1");
        assertThat(c.resolve(List.of(Chunk.idOf("d1", 1, 2)), SearchScope.ALL).get(Chunk.idOf("d1", 1, 2)).chunk()
                .figure()).isEqualTo(figure);
        assertThat(c.chunks("d1", 1, 0, 0).getFirst().figure()).isNull();
        var views = c.resolve(List.of(Chunk.idOf("d1", 1, 0), Chunk.idOf("d2", 1, 0)), SearchScope.ALL);
        assertThat(views.get(Chunk.idOf("d1", 1, 0)).documentFigures()).as("so a search reads d1's figures")
                .isEqualTo(1);
        assertThat(views.get(Chunk.idOf("d2", 1, 0)).documentFigures()).as("and never d2's").isZero();
        c.delete(List.of("d1"));
        assertThat(c.figures(List.of(d1))).isEmpty();
    }

    @Test
    void a_batch_is_allocated_staged_and_published_together_and_a_refused_version_does_not_stop_the_others() {
        CatalogAndJobs c = open();
        List<Long> versions = c.nextVersions(List.of("b1", "b2", "b3"));
        assertThat(versions).containsExactly(1L, 1L, 1L);
        c.stageAll(List.of(draft("b1", "kb", 1, "one"), draft("b2", "kb", 1, "two"), draft("b3", "kb", 1, "three")),
                versions);
        assertThat(c.pendingVersions()).hasSize(3);
        // b2 was taken for abandoned meanwhile: it is refused, b1 and b3 are published.
        assertThat(c.discard(new DocumentVersion("b2", 1))).isTrue();
        var results = c.publishAll(List.of(new DocumentVersion("b3", 1), new DocumentVersion("b2", 1),
                new DocumentVersion("b1", 1)));
        assertThat(results.get(0).refused()).isNull();
        assertThat(results.get(1).refused()).contains("not pending");
        assertThat(results.get(2).refused()).isNull();
        assertThat(c.document("b1").orElseThrow().visibleVersion()).isEqualTo(1);
        assertThat(c.document("b3").orElseThrow().visibleVersion()).isEqualTo(1);
        assertThat(c.resolve(List.of(Chunk.idOf("b2", 1, 0)), SearchScope.ALL)).isEmpty();
        assertThat(c.nextVersions(List.of("b1", "b9"))).containsExactly(2L, 1L);
        // A second batch replaces the first's version: publish says which, to purge.
        c.stageAll(List.of(draft("b1", "kb", 2, "one again")), List.of(2L));
        assertThat(c.publishAll(List.of(new DocumentVersion("b1", 2))).getFirst().before())
                .contains(new DocumentVersion("b1", 1));
    }

    @Test
    void knowledge_bases_are_listed_per_tenant_from_their_first_document_on() {
        CatalogAndJobs c = open();
        assertThat(c.knowledgeBases("")).isEmpty();
        c.stage(draft("d1", "notes", 1, "a"), 1);
        c.stage(draft("d2", "acme/notes", 1, "b"), 1);
        c.stage(draft("d3", "acme/handbook", 1, "c"), 1);
        c.stage(draft("d4", "acme/handbook", 1, "d"), 1);
        assertThat(c.knowledgeBases("")).containsExactly("notes");
        assertThat(c.knowledgeBases("acme")).containsExactly("acme/handbook", "acme/notes");
        assertThat(c.knowledgeBases("other")).isEmpty();
        // With their counts in one read, as each read alone gives them (visible documents only).
        c.publish(new DocumentVersion("d3", 1));
        c.publish(new DocumentVersion("d2", 1));
        c.createKnowledgeBase("acme/empty", "nothing yet");
        assertThat(c.knowledgeBaseInfos("acme")).isEqualTo(c.knowledgeBases("acme").stream()
                .map(n -> c.knowledgeBase(n).orElseThrow()).toList());
        assertThat(c.knowledgeBaseInfos("acme")).extracting(KnowledgeBaseInfo::documents).containsExactly(0L, 1L, 1L);
        assertThat(c.knowledgeBaseInfos("other")).isEmpty();
    }

    @Test
    void judged_queries_tuning_and_evaluation_are_kept_per_knowledge_base_and_go_with_it() {
        CatalogAndJobs c = open();
        var q1 = new JudgmentStore.Judgment("q1", "first question", Map.of("d1", 2, "d2", 0));
        var q2 = new JudgmentStore.Judgment("q2", "second", Map.of("d3", 1));
        c.createKnowledgeBase("acme/lab", "");
        c.createKnowledgeBase("globex/lab", "");
        c.judgmentStore().putJudgments("acme/lab", List.of(q1, q2));
        c.judgmentStore().putJudgments("globex/lab", List.of(q2));
        assertThat(c.judgmentStore().judgments("acme/lab")).containsExactly(q1, q2);
        var q1again = new JudgmentStore.Judgment("q1", "first, reworded", Map.of("d4", 1));
        c.judgmentStore().putJudgments("acme/lab", List.of(q1again));
        assertThat(c.judgmentStore().judgments("acme/lab")).as("a query judged again is replaced whole")
                .containsExactly(q1again, q2);
        c.judgmentStore().putTuning("acme/lab", "{\"applied\": true}");
        c.judgmentStore().putEvaluation("acme/lab", "{\"runs\": []}");
        assertThat(c.judgmentStore().tuning("acme/lab")).contains("{\"applied\": true}");
        assertThat(c.judgmentStore().evaluation("acme/lab")).contains("{\"runs\": []}");
        assertThat(c.judgmentStore().tuning("globex/lab")).isEmpty();
        c.judgmentStore().putTuning("acme/lab", null);
        assertThat(c.judgmentStore().tuning("acme/lab")).isEmpty();
        assertThat(c.judgmentStore().evaluation("acme/lab")).as("dropping the tuning keeps the evaluation").isPresent();
        assertThat(c.judgmentStore().deleteJudgments("acme/lab", "q2")).isEqualTo(1);
        assertThat(c.judgmentStore().judgments("acme/lab")).containsExactly(q1again);
        c.dropKnowledgeBase("acme/lab");
        assertThat(c.judgmentStore().judgments("acme/lab")).isEmpty();
        assertThat(c.judgmentStore().evaluation("acme/lab")).isEmpty();
        // An evaluation or a tuning that ends after the delete keeps nothing a knowledge base made again under the
        // same name would show; judgments for it are refused.
        c.judgmentStore().putEvaluation("acme/lab", "{\"runs\": [\"old\"]}");
        c.judgmentStore().putTuning("acme/lab", "{\"applied\": true}");
        assertThatThrownBy(() -> c.judgmentStore().putJudgments("acme/lab", List.of(q1)))
                .hasMessageContaining("was deleted");
        c.createKnowledgeBase("acme/lab", "");
        assertThat(c.judgmentStore().evaluation("acme/lab")).isEmpty();
        assertThat(c.judgmentStore().tuning("acme/lab")).isEmpty();
        assertThat(c.judgmentStore().judgments("acme/lab")).isEmpty();
        assertThat(c.judgmentStore().judgments("globex/lab")).containsExactly(q2);
        assertThat(c.judgmentStore().deleteJudgments("globex/lab", null)).isEqualTo(1);
    }

    @Test
    void documents_are_described_and_filtered_by_category_and_id() {
        CatalogAndJobs c = open();
        for (String id : List.of("d1", "d2", "d3")) {
            c.stage(draft(id, "kb", 1, "text of " + id), 1);
            c.publish(new DocumentVersion(id, 1));
        }
        assertThat(c.describe("d1", "Annual report", DocumentMeta.of(List.of("Finance, q_1"),
                "reports", "crm:42"))).isTrue();
        assertThat(c.describe("d2", null, DocumentMeta.of(List.of("q11"), "", ""))).isTrue();
        assertThat(c.describe("nope", null, DocumentMeta.NONE)).isFalse();
        var d1 = c.document("d1").orElseThrow();
        assertThat(d1.title()).isEqualTo("Annual report");
        assertThat(d1.meta().categories()).containsExactly("finance", "q_1");
        assertThat(d1.meta().externalRef()).isEqualTo("crm:42");
        SearchScope kb = new SearchScope(Set.of("kb"));
        assertThat(c.documents(kb.narrowed(Set.of(), "q_1"), 0, 10)).extracting(d -> d.id()).containsExactly("d1");
        assertThat(c.countDocuments(kb.narrowed(Set.of(), "finance"))).isEqualTo(1);
        assertThat(c.countDocuments(kb.narrowed(Set.of(), "q"))).as("a whole category, never part of one").isZero();
        assertThat(c.countDocuments(kb.narrowed(Set.of("d2", "d3"), null))).isEqualTo(2);
        String chunk = Chunk.idOf("d1", 1, 0);
        assertThat(c.resolve(List.of(chunk), kb.narrowed(Set.of(), "finance"))).containsOnlyKeys(chunk);
        assertThat(c.resolve(List.of(chunk), kb.narrowed(Set.of("d2"), null))).isEmpty();
    }

    @Test
    void documents_are_listed_by_status_indexing_indexed_updating() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "first"), 1);
        c.publish(new DocumentVersion("d1", 1));
        c.stage(draft("d2", "kb", 1, "second"), 1);
        c.stage(draft("d3", "kb", 1, "third"), 1);
        c.publish(new DocumentVersion("d3", 1));
        c.stage(draft("d3", "kb", 2, "third, changed"), 2);
        SearchScope kb = new SearchScope(Set.of("kb"));
        var all = EnumSet.allOf(DocumentStatus.class);
        assertThat(c.documents(kb, all, 0, 10)).extracting(d -> d.id() + "=" + d.status().wireName())
                .containsExactly("d1=indexed", "d2=indexing", "d3=updating");
        assertThat(c.documents(kb, 0, 10)).as("search sees what has a visible version").extracting(d -> d.id())
                .containsExactly("d1", "d3");
        assertThat(c.documents(kb, Set.of(DocumentStatus.INDEXING), 0, 10))
                .extracting(d -> d.id()).containsExactly("d2");
        assertThat(c.countDocuments(kb, Set.of(DocumentStatus.INDEXED,
                DocumentStatus.INDEXING))).isEqualTo(2);
        assertThat(c.countDocuments(kb, Set.of())).isZero();
        assertThat(c.document("d3").orElseThrow().status()).isEqualTo(DocumentStatus.UPDATING);
        c.publish(new DocumentVersion("d3", 2));
        assertThat(c.document("d3").orElseThrow().status()).isEqualTo(DocumentStatus.INDEXED);
        c.stage(draft("d4", "kb", 1, "fourth"), 1);
        c.publish(new DocumentVersion("d4", 1));
        c.delete(List.of("d4"));
        var byId = c.documentsById(List.of("d1", "d2", "d3", "d4", "unknown", "d1"));
        assertThat(byId).as("several ids at once: known and not deleted").containsOnlyKeys("d1", "d2", "d3");
        byId.forEach((id, d) -> assertThat(d).as(id).isEqualTo(c.document(id).orElseThrow()));
        assertThat(c.documentsById(List.of())).isEmpty();
    }

    @Test
    void sources_and_their_item_state_are_kept_per_tenant_until_deleted() {
        CatalogAndJobs c = open();
        Source s = new Source("acme", "notes", "filesystem",
                "{\"root\": \"/srv/notes\"}", "acme/notes", 60, true, null, null, null);
        assertThat(c.sourceStore().createSource(s)).isTrue();
        assertThat(c.sourceStore().createSource(s)).as("the id is taken").isFalse();
        assertThat(c.sourceStore().createSource(new Source("", "notes", "filesystem", "{}", "notes", 60,
                true, null, null, null, "acme"))).as("another tenant may use the same id").isTrue();
        assertThat(c.sourceStore().source("", "notes").orElseThrow().registeredBy())
                .as("who registered a source of local mode's rows").isEqualTo("acme");
        assertThat(s.registeredBy()).isEmpty();
        assertThat(c.sourceStore().source("acme", "notes")).hasValueSatisfying(x -> {
            assertThat(x.config()).isEqualTo("{\"root\": \"/srv/notes\"}");
            assertThat(x.createdAt()).isNotNull();
            assertThat(x.lastScanAt()).isNull();
        });
        assertThat(c.sourceStore().source("other", "notes")).isEmpty();
        assertThat(c.sourceStore().sources("acme")).extracting(Source::id).containsExactly("notes");
        assertThat(c.sourceStore().sources(null)).hasSize(2);
        assertThat(c.sourceStore().updateSource(new Source("acme", "notes", "filesystem", "{}", "acme/notes",
                120, false, null, null, null))).isTrue();
        assertThat(c.sourceStore().source("acme", "notes").orElseThrow().intervalSeconds()).isEqualTo(120);
        c.sourceStore().sourceScanned("acme", "notes", Instant.parse("2026-01-02T00:00:00Z"), "2 items failed");
        assertThat(c.sourceStore().source("acme", "notes").orElseThrow().lastError()).isEqualTo("2 items failed");
        assertThat(c.sourceStore().source("acme", "notes").orElseThrow().lastScanAt())
                .isEqualTo("2026-01-02T00:00:00Z");
        c.sourceStore().putSourceItems("acme", "notes", List.of(new SyncItem("a.md", 1, 10, "h1", "d1"),
                new SyncItem("b/c.md", 2, 20, "h2", "d2")));
        c.sourceStore().putSourceItems("acme", "notes", List.of(new SyncItem("a.md", 3, 11, "h3", "d1")));
        assertThat(c.sourceStore().sourceItems("acme", "notes")).containsOnlyKeys("a.md", "b/c.md");
        assertThat(c.sourceStore().countSourceItems("acme", "notes")).isEqualTo(2);
        assertThat(c.sourceStore().countSourceItems("", "notes")).isZero();
        assertThat(c.sourceStore().sourceItems("acme", "notes").get("a.md").hash()).isEqualTo("h3");
        assertThat(c.sourceStore().sourceItems("", "notes")).isEmpty();
        // A scan's batch lookups, its marks, and what it did not see.
        assertThat(c.sourceStore().sourceItems("acme", "notes", List.of("a.md", "missing.md", "a.md")))
                .containsOnlyKeys("a.md");
        assertThat(c.sourceStore().sourceItems("", "notes", List.of("a.md"))).as("another tenant's").isEmpty();
        c.sourceStore().markSourceItemsSeen("acme", "notes", List.of("a.md", "never-recorded.md"), 7);
        assertThat(c.sourceStore().unseenSourceItems("acme", "notes", 7, 10)).extracting(i -> i.item())
                .containsExactly("b/c.md");
        assertThat(c.sourceStore().unseenSourceItems("acme", "notes", 8, 1)).extracting(i -> i.item())
                .containsExactly("a.md");
        c.sourceStore().putSourceItems("acme", "notes", List.of(new SyncItem("a.md", 4, 12, "h4", "d1",
                "\"etag-1\"")));
        assertThat(c.sourceStore().sourceItems("acme", "notes", List.of("a.md")).get("a.md").validator())
                .isEqualTo("\"etag-1\"");
        c.sourceStore().deleteSourceItems("acme", "notes", List.of("b/c.md"));
        assertThat(c.sourceStore().sourceItems("acme", "notes")).containsOnlyKeys("a.md");
        assertThat(c.sourceStore().deleteSource("acme", "notes")).isTrue();
        assertThat(c.sourceStore().sourceItems("acme", "notes")).as("its state goes with it").isEmpty();
        assertThat(c.sourceStore().deleteSource("acme", "notes")).isFalse();
        assertThat(c.sourceStore().sources(null)).hasSize(1);
    }

    @Test
    void api_keys_are_found_by_id_with_their_hash_until_revoked() {
        CatalogAndJobs c = open();
        assertThat(c.keyStore().anyActiveKey()).isFalse();
        var k = c.keyStore().createKey("0123456789abcdef", "acme", "ci", "h".repeat(64));
        assertThat(k.tenant()).isEqualTo("acme");
        assertThat(k.active()).isTrue();
        assertThat(c.keyStore().anyActiveKey()).isTrue();
        var found = c.keyStore().activeKey("0123456789abcdef").orElseThrow();
        assertThat(found.keyHash()).isEqualTo("h".repeat(64));
        assertThat(found.key().name()).isEqualTo("ci");
        assertThat(c.keyStore().activeKey("ffffffffffffffff")).isEmpty();
        assertThat(c.keyStore().revokeKey("0123456789abcdef")).isTrue();
        assertThat(c.keyStore().revokeKey("0123456789abcdef")).as("already revoked").isFalse();
        assertThat(c.keyStore().activeKey("0123456789abcdef")).isEmpty();
        assertThat(c.keyStore().anyActiveKey()).isFalse();
        assertThat(c.keyStore().keys()).singleElement().satisfies(x -> assertThat(x.revokedAt()).isNotNull());
    }

    @Test
    void a_job_keeps_its_tenant() {
        CatalogAndJobs c = open();
        String mine = c.jobStore().submit("acme", "ingest", "{}");
        String local = c.jobStore().submit("ingest", "{}");
        assertThat(c.jobStore().job(mine).orElseThrow().tenant()).isEqualTo("acme");
        assertThat(c.jobStore().job(local).orElseThrow().tenant()).isEmpty();
    }

    @Test
    void publishing_a_new_version_replaces_the_old_one() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "old"), 1);
        c.publish(new DocumentVersion("d1", 1));
        long v2 = c.nextVersion("d1");
        assertThat(v2).isEqualTo(2);
        c.stage(draft("d1", "kb", v2, "new one", "new two"), v2);
        assertThat(c.resolve(List.of(Chunk.idOf("d1", 1, 0)), SearchScope.ALL)).hasSize(1);
        assertThat(c.publish(new DocumentVersion("d1", v2))).contains(new DocumentVersion("d1", 1));
        assertThat(c.resolve(List.of(Chunk.idOf("d1", 1, 0)), SearchScope.ALL)).isEmpty();
        assertThat(c.resolve(List.of(Chunk.idOf("d1", 2, 0), Chunk.idOf("d1", 2, 1)), SearchScope.ALL)).hasSize(2);
        assertThat(c.document("d1").orElseThrow().chunkCount()).isEqualTo(2);
    }

    @Test
    void a_discarded_version_leaves_the_visible_one_alone_and_its_number_is_never_reused() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "kept"), 1);
        c.publish(new DocumentVersion("d1", 1));
        c.stage(draft("d1", "kb", 2, "dropped"), 2);
        c.discard(new DocumentVersion("d1", 2));
        assertThat(c.resolve(List.of(Chunk.idOf("d1", 1, 0), Chunk.idOf("d1", 2, 0)), SearchScope.ALL))
                .containsOnlyKeys(Chunk.idOf("d1", 1, 0));
        assertThat(c.nextVersion("d1")).isEqualTo(3);
        assertThat(c.pendingVersions()).isEmpty();
    }

    /**
     * A newer attempt that failed and was cleaned up (discarded, then purged) does not make an older attempt that
     * succeeds look superseded: it becomes the visible version (it was marked replaced, and the document kept its
     * old content, or none).
     */
    @Test
    void an_attempt_published_after_a_newer_one_failed_and_was_purged_becomes_visible() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "first"), 1);
        c.publish(new DocumentVersion("d1", 1));
        long v2 = c.nextVersion("d1");
        c.stage(draft("d1", "kb", v2, "second"), v2);
        long v3 = c.nextVersion("d1");
        c.stage(draft("d1", "kb", v3, "third, which fails"), v3);
        c.discard(new DocumentVersion("d1", v3));
        c.markPurged(List.of(new DocumentVersion("d1", v3)));
        assertThat(c.publish(new DocumentVersion("d1", v2))).contains(new DocumentVersion("d1", 1));
        assertThat(c.document("d1").orElseThrow().visibleVersion()).isEqualTo(v2);
        assertThat(c.resolve(List.of(Chunk.idOf("d1", v2, 0)), SearchScope.ALL)).hasSize(1);
        assertThat(c.nextVersion("d1")).as("the failed attempt's number is not reused").isGreaterThan(v3);
        // The same for a document that was never visible: its first attempt to succeed is published.
        long n1 = c.nextVersion("n1");
        c.stage(draft("n1", "kb", n1, "first try"), n1);
        long n2 = c.nextVersion("n1");
        c.stage(draft("n1", "kb", n2, "second try, which fails"), n2);
        c.discard(new DocumentVersion("n1", n2));
        c.markPurged(List.of(new DocumentVersion("n1", n2)));
        c.publish(new DocumentVersion("n1", n1));
        assertThat(c.document("n1").orElseThrow().visibleVersion()).isEqualTo(n1);
    }

    /**
     * A knowledge base is not dropped while a document of it is there (staged since the deleter's last page): kept,
     * with its row, until that document is deleted too. Dropped under it, the document was in no knowledge base.
     */
    @Test
    void a_knowledge_base_is_not_dropped_under_a_document_staged_into_it() {
        CatalogAndJobs c = open();
        c.stage(draft("late", "acme/race", 1, "staged after the last page of deletes"), 1);
        assertThat(c.dropKnowledgeBase("acme/race")).isFalse();
        assertThat(c.knowledgeBase("acme/race")).isPresent();
        c.delete(List.of("late"));
        assertThat(c.dropKnowledgeBase("acme/race")).isTrue();
        assertThat(c.knowledgeBase("acme/race")).isEmpty();
        assertThat(c.dropKnowledgeBase("acme/race")).as("gone already: dropped").isTrue();
    }

    @Test
    void deleted_documents_disappear_at_once() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "x"), 1);
        c.publish(new DocumentVersion("d1", 1));
        assertThat(c.describe("d1", null, DocumentMeta.of(List.of("confidential"), "hr", "HR-7"))).isTrue();
        assertThat(c.delete(List.of("d1", "missing"))).containsExactly(new DocumentVersion("d1", 1));
        assertThat(c.resolve(List.of(Chunk.idOf("d1", 1, 0)), SearchScope.ALL)).isEmpty();
        assertThat(c.document("d1")).isEmpty();
        assertThat(c.countDocuments(SearchScope.ALL)).isZero();
        // The same id ingested again (the same name in the same knowledge base) starts with no description.
        c.stage(draft("d1", "kb", 2, "another file of that name"), 2);
        c.publish(new DocumentVersion("d1", 2));
        assertThat(c.document("d1").orElseThrow().meta()).isEqualTo(DocumentMeta.NONE);
        assertThat(c.countDocuments(new SearchScope(Set.of("kb")).narrowed(Set.of(), "confidential"))).isZero();
    }

    /**
     * A document deleted, then ingested again under the same name, is the new version's while it is written: listed
     * as being indexed, and deleted by a delete (its row stayed the deleted one: invisible, a delete answered 404,
     * and the document then appeared anyway).
     */
    @Test
    void a_deleted_document_indexed_again_is_seen_and_deleted_while_it_is_written() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "x"), 1);
        c.publish(new DocumentVersion("d1", 1));
        c.delete(List.of("d1"));
        c.stage(draft("d1", "kb", 2, "the same name again"), 2);
        assertThat(c.document("d1")).as("being indexed").isPresent();
        assertThat(c.delete(List.of("d1"))).as("nothing visible yet").isEmpty();
        assertThatThrownBy(() -> c.publish(new DocumentVersion("d1", 2))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("was deleted");
        assertThat(c.document("d1")).isEmpty();
        c.stage(draft("d1", "kb", 3, "and once more"), 3);
        c.publish(new DocumentVersion("d1", 3));
        assertThat(c.document("d1").orElseThrow().visibleVersion()).isEqualTo(3);
    }

    /** A delete while a version is being written: that version's publish is refused, the document stays gone. */
    @Test
    void a_document_deleted_while_a_version_is_written_does_not_come_back() {
        CatalogAndJobs c = open();
        c.stage(draft("first", "kb", 1, "being indexed"), 1);
        c.stage(draft("upd", "kb", 1, "one"), 1);
        c.publish(new DocumentVersion("upd", 1));
        c.stage(draft("upd", "kb", 2, "two"), 2);
        assertThat(c.delete(List.of("first", "upd"))).containsExactly(new DocumentVersion("upd", 1));
        for (DocumentVersion v : List.of(new DocumentVersion("first", 1), new DocumentVersion("upd", 2))) {
            assertThatThrownBy(() -> c.publish(v)).as(v.toString()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("was deleted");
        }
        assertThat(c.document("first")).isEmpty();
        assertThat(c.document("upd")).isEmpty();
        assertThat(c.countDocuments(SearchScope.ALL)).isZero();
        assertThat(c.unpurgedVersions()).contains(new DocumentVersion("first", 1), new DocumentVersion("upd", 1),
                new DocumentVersion("upd", 2));
    }

    @Test
    void scope_limits_resolution_and_listing_to_its_knowledge_bases() {
        CatalogAndJobs c = open();
        for (String kb : List.of("a", "b")) {
            String id = "doc-" + kb;
            c.stage(draft(id, kb, 1, "text " + kb), 1);
            c.publish(new DocumentVersion(id, 1));
        }
        SearchScope onlyB = new SearchScope(Set.of("b"));
        assertThat(c.resolve(List.of(Chunk.idOf("doc-a", 1, 0), Chunk.idOf("doc-b", 1, 0)), onlyB))
                .containsOnlyKeys(Chunk.idOf("doc-b", 1, 0));
        assertThat(c.documents(onlyB, 0, 10)).extracting(d -> d.id()).containsExactly("doc-b");
        assertThat(c.countDocuments(SearchScope.ALL)).isEqualTo(2);
        assertThat(c.documents(SearchScope.ALL, 1, 10)).hasSize(1);
    }

    @Test
    void state_survives_a_reopen() {
        CatalogAndJobs first = openCatalog(dir);
        first.stage(draft("d1", "kb", 1, "durable"), 1);
        first.publish(new DocumentVersion("d1", 1));
        String job = first.jobStore().submit("ingest", "{}");
        first.close();
        CatalogAndJobs second = open();
        assertThat(second.resolve(List.of(Chunk.idOf("d1", 1, 0)), SearchScope.ALL)).hasSize(1);
        assertThat(second.jobStore().job(job)).isPresent();
    }

    /**
     * A first version's discard racing a second writer's stage of the same new document: the second writer's
     * version, once published, is visible (the discard deleted the document row the stage had found, unlocked).
     */
    @Test
    void a_discard_racing_another_writers_stage_leaves_that_writers_version_visible() throws Exception {
        CatalogAndJobs c = open();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 60; i++) {
                String id = "race" + i;
                c.stage(draft(id, "kb", 1, "first"), 1);
                String[] texts = new String[40];
                for (int k = 0; k < texts.length; k++) {
                    texts[k] = "second writer's text " + k;
                }
                CyclicBarrier go = new CyclicBarrier(2);
                Future<?> discard = pool.submit(() -> {
                    go.await();
                    return c.discard(new DocumentVersion(id, 1));
                });
                Future<?> second = pool.submit(() -> {
                    go.await();
                    c.stage(draft(id, "kb", 2, texts), 2);
                    c.publish(new DocumentVersion(id, 2));
                    return null;
                });
                discard.get();
                second.get();
                assertThat(c.document(id)).as(id).hasValueSatisfying(d -> assertThat(d.visibleVersion())
                        .isEqualTo(2));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Syncs of one source asked for at once (replicas, a double click) queue one job: the check and the insert are
     * one transaction holding the source's row.
     */
    @Test
    void one_sync_of_a_source_is_queued_however_many_ask_at_once() throws Exception {
        CatalogAndJobs c = open();
        assertThat(c.sourceStore().createSource(new Source("acme", "notes", "filesystem", "{}", "acme/notes", 60,
                true, clock.instant(), null, null))).isTrue();
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<JobStore.Queued>> asked = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int i = 0; i < threads; i++) {
                asked.add(pool.submit(() -> {
                    start.await();
                    return c.jobStore().submitForSource("acme", "sync", "{}", "acme/notes", "notes");
                }));
            }
            Set<String> ids = new HashSet<>();
            int created = 0;
            for (var f : asked) {
                JobStore.Queued q = f.get();
                ids.add(q.id());
                created += q.created() ? 1 : 0;
            }
            assertThat(ids).hasSize(1);
            assertThat(created).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(c.jobStore().unfinished()).hasSize(1);
        assertThat(c.jobStore().submitForSource("acme", "sync", "{}", "acme/notes", "other").created()).isTrue();
        assertThat(c.jobStore().submitForSource("beta", "sync", "{}", "beta/notes", "notes").created())
                .as("another tenant's source of the same name").isTrue();
    }

    /** A tenant's waiting jobs and the uploaded bytes they hold: queued and running count, ended ones do not. */
    @Test
    void a_tenants_pending_jobs_and_their_staged_bytes_are_counted() {
        CatalogAndJobs c = open();
        assertThat(c.jobStore().pending("t")).isEqualTo(new JobStore.Pending(0, 0));
        assertThat(c.jobStore().queue()).isEqualTo(new JobStore.Queue(0, null));
        String first = c.jobStore().submit("t", "ingest-upload", "{}", null, null, 1_000);
        // The metrics' view of every tenant's queue: counted, and the oldest's time as the job rows have it.
        JobStore.Queue queue = c.jobStore().queue();
        assertThat(queue.queued()).isEqualTo(1);
        assertThat(queue.oldestQueuedAt()).isNotNull().isEqualTo(c.jobStore().job(first).orElseThrow().updatedAt());
        assertThat(c.jobStore().pending("t")).isEqualTo(new JobStore.Pending(1, 1_000));
        assertThat(c.jobStore().claim(Duration.ofMinutes(5), 3).orElseThrow().info().id()).isEqualTo(first);
        c.jobStore().submit("t", "ingest-upload", "{}", null, null, 5_000_000_000L);
        String tune = c.jobStore().submit("t", "tune", "{}", null, null, 0);
        c.jobStore().submit("other", "ingest-upload", "{}", null, null, 7);
        assertThat(c.jobStore().pending("t")).as("a running job's files not reached yet count (none processed: all)")
                .isEqualTo(new JobStore.Pending(3, 5_000_001_000L));
        c.jobStore().finish(first, 1, JobStatus.SUCCEEDED, JobProgress.queued(), null);
        c.jobStore().cancel(tune);
        assertThat(c.jobStore().pending("t")).as("ended jobs hold nothing").isEqualTo(
                new JobStore.Pending(1, 5_000_000_000L));
        assertThat(c.jobStore().pending("other")).isEqualTo(new JobStore.Pending(1, 7));
        assertThat(c.jobStore().queue().queued()).as("every tenant's queued, not running or ended").isEqualTo(2);
    }

    /** A hidden kind is left out before the page is cut: a page is short only at the end of the list. */
    @Test
    void a_page_of_jobs_leaves_a_hidden_kind_out_before_it_is_cut() {
        CatalogAndJobs c = open();
        String kept = c.jobStore().submit("t", "ingest", "{}", null, null, 0);
        for (int i = 0; i < 3; i++) {
            c.jobStore().submit("t", "reindex", "{}", null, null, 0);
        }
        assertThat(c.jobStore().jobs("t", 0, 2)).hasSize(2);
        assertThat(c.jobStore().jobs("t", 0, 2, "reindex")).extracting(JobInfo::id).containsExactly(kept);
    }

    /**
     * A job asked to cancel while it ran and then put back in the queue (a yield, a stop) ends canceled when claimed,
     * instead of running another file (paid extraction included) before its next write reads the request.
     */
    @Test
    void a_job_canceled_while_it_ran_and_then_requeued_ends_canceled_when_claimed() {
        CatalogAndJobs c = open();
        String id = c.jobStore().submit("ingest", "{}");
        int attempt = c.jobStore().claim(Duration.ofMinutes(5), 3).orElseThrow().info().attempts();
        assertThat(c.jobStore().cancel(id)).isTrue();
        c.jobStore().release(id, attempt);
        JobStore.Claimed again = c.jobStore().claim(Duration.ofMinutes(5), 3).orElseThrow();
        assertThat(again.gaveUp()).as("nothing to run, only what it held to release").isTrue();
        assertThat(again.info().status()).isEqualTo(JobStatus.CANCELED);
        assertThat(c.jobStore().job(id).orElseThrow().status()).isEqualTo(JobStatus.CANCELED);
    }

    /**
     * What a tenant's unfinished jobs still hold against its storage quota: the share of their staged bytes not yet
     * processed, running or queued again after a yield.
     */
    @Test
    void a_tenants_waiting_bytes_are_what_its_jobs_have_not_yet_reached() {
        CatalogAndJobs c = open();
        c.jobStore().submit("t", "upload", "{}", null, null, 1000);
        assertThat(c.jobStore().pending("t").stagedBytes()).isEqualTo(1000);
        JobStore.Claimed claimed = c.jobStore().claim(Duration.ofMinutes(5), 3).orElseThrow();
        assertThat(c.jobStore().pending("t").stagedBytes()).as("running, nothing processed").isEqualTo(1000);
        c.jobStore().progress(claimed.info().id(), claimed.info().attempts(), JobProgress.at("writing").total(10)
                .processed(4).build());
        assertThat(c.jobStore().pending("t").stagedBytes()).as("4 of 10 files published").isEqualTo(600);
        c.jobStore().release(claimed.info().id(), claimed.info().attempts());
        assertThat(c.jobStore().pending("t").stagedBytes()).as("queued again after a yield").isEqualTo(600);
        assertThat(c.jobStore().pending("t").jobs()).isEqualTo(1);
    }

    /** A tenant's queued and running jobs, however many finished ones are newer. */
    @Test
    void a_tenants_unfinished_jobs_are_listed_however_many_finished_ones_are_newer() {
        CatalogAndJobs c = open();
        String running = c.jobStore().submit("t", "upload", "{}", null, null, 0);
        c.jobStore().claim(Duration.ofMinutes(5), 3);
        for (int i = 0; i < 60; i++) {
            String done = c.jobStore().submit("t", "sync", "{}", null, null, 0);
            int attempt = c.jobStore().claim(Duration.ofMinutes(5), 3).orElseThrow().info().attempts();
            c.jobStore().finish(done, attempt, JobStatus.SUCCEEDED, JobProgress.queued(), null);
        }
        String queued = c.jobStore().submit("t", "upload", "{}", null, null, 0);
        c.jobStore().submit("other", "upload", "{}", null, null, 0);
        assertThat(c.jobStore().unfinished("t", 10)).extracting(JobInfo::id).containsExactlyInAnyOrder(running, queued);
        assertThat(c.jobStore().unfinished("t", 1)).hasSize(1);
    }

    /** Asking a running job to stop is not a sign of life: its heartbeat time stays as the worker left it. */
    @Test
    void a_cancel_request_leaves_a_running_jobs_heartbeat_alone() throws InterruptedException {
        CatalogAndJobs c = open();
        String id = c.jobStore().submit("ingest", "{}");
        c.jobStore().claim(Duration.ofMinutes(5), 3);
        Instant beat = c.jobStore().job(id).orElseThrow().updatedAt();
        Thread.sleep(20);
        assertThat(c.jobStore().cancel(id)).isTrue();
        assertThat(c.jobStore().job(id).orElseThrow().updatedAt()).isEqualTo(beat);
    }

    @Test
    void jobs_are_claimed_once_then_progress_and_finish() {
        CatalogAndJobs c = open();
        String id = c.jobStore().submit("ingest", "{\"x\":1}");
        JobInfo queued = c.jobStore().job(id).orElseThrow();
        assertThat(queued.status()).isEqualTo(JobStatus.QUEUED);
        Optional<JobStore.Claimed> claimed = c.jobStore().claim(Duration.ofMinutes(5), 3);
        assertThat(claimed).isPresent();
        assertThat(claimed.get().payload()).isEqualTo("{\"x\":1}");
        assertThat(claimed.get().info().attempts()).isEqualTo(1);
        assertThat(c.jobStore().claim(Duration.ofMinutes(5), 3)).isEmpty();
        JobProgress p = JobProgress.at("writing").total(10).processed(4).added(3).updated(1).chunks(12)
                .storesWritten(List.of("vector")).errors(List.of(new ItemError("a.bin", "binary"))).relations(7)
                .extractionTokens(1234).estimatedCalls(10).estimatedTokens(5000)
                .warnings(List.of("the extraction token budget ran out", "second warning")).build();
        assertThat(c.jobStore().progress(id, 1, p)).isTrue();
        assertThat(c.jobStore().job(id).orElseThrow().progress()).isEqualTo(p);
        assertThat(c.jobStore().job(id).orElseThrow().status()).isEqualTo(JobStatus.RUNNING);
        assertThat(c.jobStore().finish(id, 1, JobStatus.SUCCEEDED, p, null)).isTrue();
        assertThat(c.jobStore().job(id).orElseThrow().status()).isEqualTo(JobStatus.SUCCEEDED);
        String failing = c.jobStore().submit("ingest", "{}");
        c.jobStore().claim(Duration.ofMinutes(5), 3);
        c.jobStore().finish(failing, 1, JobStatus.FAILED, JobProgress.queued(), "boom");
        assertThat(c.jobStore().job(failing).orElseThrow().status()).isEqualTo(JobStatus.FAILED);
        assertThat(c.jobStore().job(failing).orElseThrow().error()).isEqualTo("boom");
        assertThat(c.jobStore().job("nope")).isEmpty();
    }

    @Test
    void finished_jobs_older_than_the_cutoff_are_deleted_and_unfinished_ones_never() {
        CatalogAndJobs c = open();
        String old = c.jobStore().submit("ingest", "{}");
        c.jobStore().claim(Duration.ofMinutes(5), 3);
        c.jobStore().finish(old, 1, JobStatus.SUCCEEDED, JobProgress.queued(), null);
        String canceled = c.jobStore().submit("ingest", "{}");
        c.jobStore().cancel(canceled);
        String queued = c.jobStore().submit("ingest", "{}");
        clock.advance(Duration.ofDays(40));
        String running = c.jobStore().submit("ingest", "{}");
        clock.advance(Duration.ofSeconds(1));
        String recent = c.jobStore().submit("ingest", "{}");
        // The queued one is claimed first (oldest); claim again for the next.
        assertThat(c.jobStore().claim(Duration.ofDays(100), 3).orElseThrow().info().id()).isEqualTo(queued);
        c.jobStore().finish(queued, 1, JobStatus.FAILED, JobProgress.queued(), "boom");
        assertThat(c.jobStore().claim(Duration.ofDays(100), 3).orElseThrow().info().id()).isEqualTo(running);
        assertThat(c.jobStore().claim(Duration.ofDays(100), 3).orElseThrow().info().id()).isEqualTo(recent);
        c.jobStore().finish(recent, 1, JobStatus.PARTIAL, JobProgress.queued(), "1 of 2 failed");
        int deleted = c.jobStore().deleteFinishedBefore(clock.instant().minus(Duration.ofDays(30)));
        assertThat(deleted).isEqualTo(2);
        assertThat(c.jobStore().job(old)).isEmpty();
        assertThat(c.jobStore().job(canceled)).isEmpty();
        assertThat(c.jobStore().job(queued)).as("submitted long ago, finished now").isPresent();
        assertThat(c.jobStore().job(running)).isPresent();
        assertThat(c.jobStore().job(recent)).isPresent();
        assertThat(c.jobStore().deleteFinishedBefore(clock.instant().plus(Duration.ofDays(1)))).as("running kept")
                .isEqualTo(2);
        assertThat(c.jobStore().job(running).orElseThrow().status()).isEqualTo(JobStatus.RUNNING);
    }

    @Test
    void a_job_with_some_failed_items_finishes_partial_and_unfinished_jobs_are_listed_with_payloads() {
        CatalogAndJobs c = open();
        String done = c.jobStore().submit("ingest", "{\"a\":1}");
        clock.advance(Duration.ofSeconds(1));
        String waiting = c.jobStore().submit("ingest", "{\"b\":2}");
        c.jobStore().claim(Duration.ofMinutes(5), 3);
        assertThat(c.jobStore().unfinished()).extracting(JobStore.Claimed::payload).containsExactly("{\"a\":1}",
                "{\"b\":2}");
        c.jobStore().finish(done, 1, JobStatus.PARTIAL, JobProgress.queued(), "1 of 2 files failed");
        JobInfo partial = c.jobStore().job(done).orElseThrow();
        assertThat(partial.status()).isEqualTo(JobStatus.PARTIAL);
        assertThat(partial.status().finished()).isTrue();
        assertThat(partial.error()).isEqualTo("1 of 2 files failed");
        assertThat(c.jobStore().unfinished()).extracting(j -> j.info().id()).containsExactly(waiting);
        assertThatThrownBy(() -> c.jobStore().finish(waiting, 1, JobStatus.RUNNING, JobProgress.queued(), null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void replaced_and_deleted_versions_stay_unpurged_until_marked_and_visible_versions_carry_their_counts() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "one"), 1);
        c.publish(new DocumentVersion("d1", 1));
        DocumentDraft two = draft("d1", "kb", 2, "two", "three");
        c.stage(new DocumentDraft(two.id(), two.knowledgeBase(), two.uri(), two.title(), two.mediaType(),
                two.contentHash(), two.sizeBytes(), two.chunks(), 1), 2);
        assertThat(c.publish(new DocumentVersion("d1", 2))).contains(new DocumentVersion("d1", 1));
        c.stage(draft("d2", "other", 1, "gone"), 1);
        c.publish(new DocumentVersion("d2", 1));
        assertThat(c.visibleVersions()).containsExactly(
                new VersionRecords(new DocumentVersion("d1", 2), "kb", 2, 1),
                new VersionRecords(new DocumentVersion("d2", 1), "other", 1, 0));
        assertThat(c.totals()).isEqualTo(new Catalog.Totals(3, 1, false));
        c.delete(List.of("d2"));
        assertThat(c.unpurgedVersions()).containsExactly(new DocumentVersion("d1", 1), new DocumentVersion("d2", 1));
        c.markPurged(List.of(new DocumentVersion("d1", 1)));
        assertThat(c.unpurgedVersions()).containsExactly(new DocumentVersion("d2", 1));
        assertThat(c.visibleVersions()).extracting(VersionRecords::version).containsExactly(
                new DocumentVersion("d1", 2));
        DocumentDraft old = draft("d4", "kb", 1, "written before graph chunks were counted");
        c.stage(new DocumentDraft(old.id(), old.knowledgeBase(), old.uri(), old.title(), old.mediaType(),
                old.contentHash(), old.sizeBytes(), old.chunks(), -1), 1);
        c.publish(new DocumentVersion("d4", 1));
        assertThat(c.totals()).isEqualTo(new Catalog.Totals(3, 1, true));
        c.stage(draft("d3", "kb", 1, "pending"), 1);
        c.markPurged(List.of(new DocumentVersion("d3", 1)));
        assertThat(c.pendingVersions()).as("only replaced or deleted versions are purged")
                .containsExactly(new DocumentVersion("d3", 1));
    }

    @Test
    void a_stale_job_that_makes_no_progress_is_claimed_again_until_its_attempts_run_out() {
        CatalogAndJobs c = open();
        String id = c.jobStore().submit("ingest", "{}");
        Duration stale = Duration.ofMinutes(5);
        assertThat(c.jobStore().claim(stale, 2)).isPresent();
        clock.advance(Duration.ofMinutes(4));
        assertThat(c.jobStore().claim(stale, 2)).as("not stale yet").isEmpty();
        clock.advance(Duration.ofMinutes(2));
        Optional<JobStore.Claimed> again = c.jobStore().claim(stale, 2);
        assertThat(again).isPresent();
        assertThat(again.get().gaveUp()).isFalse();
        assertThat(again.get().info().attempts()).isEqualTo(2);
        clock.advance(Duration.ofMinutes(6));
        Optional<JobStore.Claimed> last = c.jobStore().claim(stale, 2);
        assertThat(last).as("given up, and handed back for its holder to release what it held").isPresent();
        assertThat(last.get().gaveUp()).isTrue();
        assertThat(last.get().info().status()).isEqualTo(JobStatus.FAILED);
        assertThat(c.jobStore().claim(stale, 2)).isEmpty();
        JobInfo failed = c.jobStore().job(id).orElseThrow();
        assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
        assertThat(failed.error()).contains("gave up after 2 runs");
    }

    @Test
    void a_run_that_got_further_than_the_one_before_is_not_held_against_its_job() {
        CatalogAndJobs c = open();
        String id = c.jobStore().submit("ingest", "{}");
        Duration stale = Duration.ofMinutes(5);
        for (int processed = 10; processed <= 50; processed += 10) {
            JobStore.Claimed run = c.jobStore().claim(stale, 2).orElseThrow();
            assertThat(run.gaveUp()).as("run reaching " + processed).isFalse();
            assertThat(c.jobStore().progress(id, run.info().attempts(), progress(processed))).isTrue();
            clock.advance(Duration.ofMinutes(6)); // the process dies: the job goes stale
        }
        // Two runs that get no further than 50: the second is one too many.
        JobStore.Claimed stuck = c.jobStore().claim(stale, 2).orElseThrow();
        c.jobStore().progress(id, stuck.info().attempts(), progress(50));
        clock.advance(Duration.ofMinutes(6));
        JobStore.Claimed again = c.jobStore().claim(stale, 2).orElseThrow();
        assertThat(again.gaveUp()).isFalse();
        c.jobStore().progress(id, again.info().attempts(), progress(40));
        clock.advance(Duration.ofMinutes(6));
        assertThat(c.jobStore().claim(stale, 2).orElseThrow().gaveUp()).isTrue();
    }

    @Test
    void a_released_job_is_queued_again_without_counting_the_run() {
        CatalogAndJobs c = open();
        String id = c.jobStore().submit("ingest", "{}");
        for (int i = 0; i < 5; i++) {
            JobStore.Claimed run = c.jobStore().claim(Duration.ofMinutes(5), 1).orElseThrow();
            assertThat(run.gaveUp()).isFalse();
            assertThat(c.jobStore().job(id).orElseThrow().status()).isEqualTo(JobStatus.RUNNING);
            assertThat(c.jobStore().release(id, run.info().attempts())).isTrue();
            assertThat(c.jobStore().release(id, run.info().attempts())).as("released once").isFalse();
            assertThat(c.jobStore().job(id).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
        }
        JobStore.Claimed last = c.jobStore().claim(Duration.ofMinutes(5), 1).orElseThrow();
        assertThat(c.jobStore().finish(id, last.info().attempts(), JobStatus.SUCCEEDED, progress(1), null)).isTrue();
    }

    @Test
    void workers_are_shared_between_tenants_before_age() {
        CatalogAndJobs c = open();
        String a1 = c.jobStore().submit("alpha", "ingest", "{}");
        clock.advance(Duration.ofSeconds(1));
        String a2 = c.jobStore().submit("alpha", "ingest", "{}");
        clock.advance(Duration.ofSeconds(1));
        String a3 = c.jobStore().submit("alpha", "ingest", "{}");
        clock.advance(Duration.ofSeconds(1));
        String b1 = c.jobStore().submit("beta", "ingest", "{}");
        assertThat(c.jobStore().othersWaiting("alpha", List.of())).isTrue();
        assertThat(c.jobStore().othersWaiting("gamma", List.of())).isTrue();
        assertThat(c.jobStore().othersWaiting("alpha", List.of("ingest"))).as("of a kind no job yields to").isFalse();
        Duration stale = Duration.ofMinutes(5);
        assertThat(claim(c).info().id()).as("the oldest job first").isEqualTo(a1);
        assertThat(claim(c).info().id()).as("then the tenant with nothing running").isEqualTo(b1);
        assertThat(c.jobStore().othersWaiting("alpha", List.of())).isFalse();
        assertThat(c.jobStore().othersWaiting("beta", List.of("reindex"))).isTrue();
        JobStore.Claimed a2run = claim(c);
        assertThat(a2run.info().id()).isEqualTo(a2);
        // beta queues another job; alpha's second running job yields its worker for it.
        String b2 = c.jobStore().submit("beta", "ingest", "{}");
        assertThat(c.jobStore().release(a2, a2run.info().attempts())).isTrue();
        assertThat(claim(c).info().id()).as("one running each: beta was served longest ago").isEqualTo(b2);
        assertThat(claim(c).info().id()).isEqualTo(a2);
        assertThat(claim(c).info().id()).isEqualTo(a3);
        assertThat(c.jobStore().claim(stale, 3)).isEmpty();
    }

    private JobStore.Claimed claim(CatalogAndJobs c) {
        JobStore.Claimed claimed = c.jobStore().claim(Duration.ofMinutes(5), 3).orElseThrow();
        clock.advance(Duration.ofSeconds(1));
        return claimed;
    }

    private static JobProgress progress(int processed) {
        return JobProgress.at("parsing").total(100).processed(processed).build();
    }

    @Test
    void neighbouring_chunks_come_in_reading_order_from_the_visible_version_only() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "zero", "one", "two", "three"), 1);
        assertThat(c.chunks("d1", 1, 0, 3)).as("not yet visible").isEmpty();
        c.publish(new DocumentVersion("d1", 1));
        assertThat(c.chunks("d1", 1, 1, 2)).extracting(Chunk::text).containsExactly("one", "two");
        assertThat(c.chunks("d1", 1, -1, 0)).extracting(Chunk::text).containsExactly("zero");
        assertThat(c.chunks("d1", 2, 0, 3)).isEmpty();
        c.delete(List.of("d1"));
        assertThat(c.chunks("d1", 1, 0, 3)).isEmpty();
    }

    @Test
    void visible_documents_can_be_found_by_content_hash() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", c.nextVersion("d1"), "alpha"), 1);
        assertThat(c.documentsWithContent("hash-1", SearchScope.ALL)).as("staged, not yet visible").isEmpty();
        c.publish(new DocumentVersion("d1", 1));
        assertThat(c.documentsWithContent("hash-1", SearchScope.ALL)).extracting(d -> d.id()).containsExactly("d1");
        assertThat(c.documentsWithContent("hash-1", new SearchScope(Set.of("other")))).isEmpty();
        assertThat(c.documentsWithContent("hash-9", SearchScope.ALL)).isEmpty();
        c.delete(List.of("d1"));
        assertThat(c.documentsWithContent("hash-1", SearchScope.ALL)).isEmpty();
    }

    @Test
    void the_response_cache_keeps_the_first_response_per_key() {
        CatalogAndJobs c = open();
        String key = "a".repeat(64);
        assertThat(c.responseCache().response(key)).isEmpty();
        c.responseCache().rememberResponse(key, "{\"entities\": [\"é\"]}");
        c.responseCache().rememberResponse(key, "other");
        assertThat(c.responseCache().response(key)).contains("{\"entities\": [\"é\"]}");
        assertThat(c.responseCache().response("b".repeat(64))).isEmpty();
    }

    @Test
    void the_context_cache_returns_what_was_remembered_and_keeps_the_first() {
        CatalogAndJobs c = open();
        String a = "a".repeat(64);
        String b = "b".repeat(64);
        assertThat(c.contextCache().contexts(List.of(a, b))).isEmpty();
        c.contextCache().rememberContexts(Map.of(a, "From the 2023 annual report of Borealis Instruments, on revenue.",
                b,
                "é ".repeat(2500)));
        c.contextCache().rememberContexts(Map.of(a, "another"));
        var got = c.contextCache().contexts(List.of(a, b, "c".repeat(64)));
        assertThat(got).containsOnlyKeys(a, b);
        assertThat(got.get(a)).isEqualTo("From the 2023 annual report of Borealis Instruments, on revenue.");
        assertThat(got.get(b)).as("cut to the column's size").hasSize(4000);
        assertThat(c.contextCache().contexts(List.of())).isEmpty();
    }

    @Test
    void the_embedding_cache_returns_what_was_remembered_per_model() {
        CatalogAndJobs c = open();
        float[] v = {0.25f, -1.5f, 3.0f};
        c.embeddingCache().remember("m1", Map.of("h1", v, "h2", new float[] {1f}));
        c.embeddingCache().remember("m1", Map.of("h1", new float[] {9f}));
        var got = c.embeddingCache().vectors("m1", List.of("h1", "h3"));
        assertThat(got).containsOnlyKeys("h1");
        assertThat(got.get("h1")).containsExactly(0.25f, -1.5f, 3.0f);
        assertThat(c.embeddingCache().vectors("m2", List.of("h1"))).isEmpty();
        assertThat(c.embeddingCache().vectors("m1", List.of())).isEmpty();
        c.embeddingCache().remember("m2", Map.of("h1", new float[] {7f}));
        assertThat(c.embeddingCache().vectors("m2", List.of("h1", "h2")).get("h1")).containsExactly(7f);
        assertThat(c.embeddingCache().vectors("m2", List.of("h1", "h2"))).containsOnlyKeys("h1");
        assertThat(c.embeddingCache().vectors("m1", List.of("h1")).get("h1")).containsExactly(0.25f, -1.5f, 3.0f);
    }

    @Test
    void the_embedding_cache_forgets_what_it_is_told_for_that_model_only() {
        CatalogAndJobs c = open();
        c.embeddingCache().remember("m1", Map.of("h1", new float[] {1f}, "h2", new float[] {2f}));
        c.embeddingCache().remember("m2", Map.of("h1", new float[] {3f}));
        c.embeddingCache().forget("m1", List.of("h1", "h1", "unknown"));
        c.embeddingCache().forget("m1", List.of());
        assertThat(c.embeddingCache().vectors("m1", List.of("h1", "h2"))).containsOnlyKeys("h2");
        assertThat(c.embeddingCache().vectors("m2", List.of("h1")).get("h1")).containsExactly(3f);
        c.embeddingCache().remember("m1", Map.of("h1", new float[] {4f}));
        assertThat(c.embeddingCache().vectors("m1", List.of("h1")).get("h1")).as("remembered again after")
                .containsExactly(4f);
    }

    @Test
    void two_long_model_ids_that_share_their_start_never_share_cached_vectors() {
        CatalogAndJobs c = open();
        String a = "/models/" + "x".repeat(300) + "/a@512";
        String b = "/models/" + "x".repeat(300) + "/a@256";
        c.embeddingCache().remember(a, Map.of("h1", new float[] {1f}));
        c.embeddingCache().remember(b, Map.of("h1", new float[] {2f}));
        assertThat(c.embeddingCache().vectors(a, List.of("h1")).get("h1")).containsExactly(1f);
        assertThat(c.embeddingCache().vectors(b, List.of("h1")).get("h1")).containsExactly(2f);
    }

    @Test
    void requeueing_puts_running_jobs_back_in_the_queue() {
        CatalogAndJobs c = open();
        String id = c.jobStore().submit("ingest", "{}");
        c.jobStore().claim(Duration.ofMinutes(5), 3);
        assertThat(c.jobStore().requeueRunning()).isEqualTo(1);
        assertThat(c.jobStore().job(id).orElseThrow().status()).isEqualTo(JobStatus.QUEUED);
        assertThat(c.jobStore().claim(Duration.ofMinutes(5), 3).orElseThrow().info().attempts()).isEqualTo(2);
    }

    @Test
    void concurrent_workers_never_claim_the_same_job() throws Exception {
        CatalogAndJobs c = open();
        for (int i = 0; i < 20; i++) {
            c.jobStore().submit("ingest", "{}");
        }
        Set<String> claimed = ConcurrentHashMap.newKeySet();
        List<String> duplicates = new CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (int w = 0; w < 4; w++) {
                pool.submit(() -> {
                    start.await();
                    Optional<JobStore.Claimed> job;
                    while ((job = c.jobStore().claim(Duration.ofMinutes(5), 3)).isPresent()) {
                        if (!claimed.add(job.get().info().id())) {
                            duplicates.add(job.get().info().id());
                        }
                    }
                    return null;
                });
            }
            start.countDown();
        }
        assertThat(duplicates).isEmpty();
        assertThat(claimed).hasSize(20);
    }

    @Test
    void a_reclaimed_job_takes_no_progress_or_end_from_its_old_worker_and_heartbeats_keep_a_job_claimed() {
        CatalogAndJobs c = open();
        String id = c.jobStore().submit("ingest", "{}");
        Duration stale = Duration.ofMinutes(5);
        int first = c.jobStore().claim(stale, 3).orElseThrow().info().attempts();
        clock.advance(Duration.ofMinutes(4));
        assertThat(c.jobStore().heartbeat(id, first)).isTrue();
        clock.advance(Duration.ofMinutes(4));
        assertThat(c.jobStore().claim(stale, 3)).as("heartbeated four minutes ago: not stale").isEmpty();
        clock.advance(Duration.ofMinutes(2));
        int second = c.jobStore().claim(stale, 3).orElseThrow().info().attempts();
        assertThat(second).isEqualTo(first + 1);
        JobProgress late = JobProgress.at("writing").total(5).processed(5).added(5).chunks(5).build();
        assertThat(c.jobStore().progress(id, first, late)).as("the old worker is told to stop").isFalse();
        assertThat(c.jobStore().heartbeat(id, first)).isFalse();
        assertThat(c.jobStore().finish(id, first, JobStatus.SUCCEEDED, late, null)).as("nor may it finish the job")
                .isFalse();
        assertThat(c.jobStore().job(id).orElseThrow().status()).isEqualTo(JobStatus.RUNNING);
        assertThat(c.jobStore().job(id).orElseThrow().progress().processed()).isZero();
        assertThat(c.jobStore().progress(id, second, late)).isTrue();
        assertThat(c.jobStore().finish(id, second, JobStatus.SUCCEEDED, late, null)).isTrue();
        assertThat(c.jobStore().job(id).orElseThrow().status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(c.jobStore().heartbeat(id, second)).as("a finished job has no claim").isFalse();
        assertThat(c.jobStore().progress(id, second, late)).isFalse();
    }

    @Test
    void two_writers_of_one_document_never_lose_a_version_and_the_newest_stays_visible() {
        CatalogAndJobs c = open();
        long older = c.nextVersion("d1");
        long newer = c.nextVersion("d1");
        c.stage(draft("d1", "kb", older, "older text"), older);
        c.stage(draft("d1", "kb", newer, "newer text"), newer);
        assertThat(c.publish(new DocumentVersion("d1", newer))).isEmpty();
        assertThat(c.publish(new DocumentVersion("d1", older))).as("published late: replaced at once, to purge")
                .contains(new DocumentVersion("d1", older));
        assertThat(c.document("d1").orElseThrow().visibleVersion()).isEqualTo(newer);
        assertThat(c.chunks("d1", newer, 0, 0)).extracting(Chunk::text).containsExactly("newer text");
        assertThat(c.unpurgedVersions()).containsExactly(new DocumentVersion("d1", older));
        // Publishing one version leaves another writer's pending version whole.
        long third = c.nextVersion("d1");
        long fourth = c.nextVersion("d1");
        c.stage(draft("d1", "kb", third, "third"), third);
        c.stage(draft("d1", "kb", fourth, "fourth"), fourth);
        assertThat(c.publish(new DocumentVersion("d1", third))).contains(new DocumentVersion("d1", newer));
        assertThat(c.publish(new DocumentVersion("d1", fourth))).contains(new DocumentVersion("d1", third));
        assertThat(c.chunks("d1", fourth, 0, 0)).extracting(Chunk::text).containsExactly("fourth");
        assertThat(c.document("d1").orElseThrow().chunkCount()).isEqualTo(1);
        // A slow writer's older version does not come back after the document is deleted either.
        long slow = c.nextVersion("d1");
        long fast = c.nextVersion("d1");
        c.stage(draft("d1", "kb", slow, "slow"), slow);
        c.stage(draft("d1", "kb", fast, "fast"), fast);
        c.publish(new DocumentVersion("d1", fast));
        c.delete(List.of("d1"));
        assertThatThrownBy(() -> c.publish(new DocumentVersion("d1", slow))).hasMessageContaining("was deleted");
        assertThat(c.document("d1")).as("still deleted").isEmpty();
        assertThat(c.chunks("d1", slow, 0, 0)).isEmpty();
    }

    @Test
    void purging_keeps_what_stops_an_older_version_coming_back() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "one"), 1);
        c.publish(new DocumentVersion("d1", 1));
        // A slow writer took version 2, and stages it only after versions 3 and 4 were published and the document
        // deleted (one staged before the delete is given up by it).
        c.stage(draft("d1", "kb", 3, "three"), 3);
        c.publish(new DocumentVersion("d1", 3));
        c.stage(draft("d1", "kb", 4, "four"), 4);
        c.publish(new DocumentVersion("d1", 4));
        c.delete(List.of("d1"));
        assertThat(c.unpurgedVersions()).containsExactly(new DocumentVersion("d1", 1), new DocumentVersion("d1", 3),
                new DocumentVersion("d1", 4));
        c.markPurged(c.unpurgedVersions());
        assertThat(c.unpurgedVersions()).isEmpty();
        c.stage(draft("d1", "kb", 2, "two"), 2);
        assertThat(c.publish(new DocumentVersion("d1", 2))).as("older than what was deleted: goes as replaced")
                .contains(new DocumentVersion("d1", 2));
        assertThat(c.document("d1")).as("still deleted").isEmpty();
        assertThat(c.unpurgedVersions()).containsExactly(new DocumentVersion("d1", 2));
        c.markPurged(c.unpurgedVersions());
        // And a new version after all that is visible again.
        long next = c.nextVersion("d1");
        assertThat(next).isGreaterThan(4);
        c.stage(draft("d1", "kb", next, "five"), next);
        c.publish(new DocumentVersion("d1", next));
        assertThat(c.document("d1").orElseThrow().visibleVersion()).isEqualTo(next);
    }

    @Test
    void a_discarded_version_cannot_be_published_and_is_purged_like_a_replaced_one() {
        CatalogAndJobs c = open();
        c.stage(draft("d1", "kb", 1, "one"), 1);
        clock.advance(Duration.ofMinutes(10));
        c.stage(draft("d2", "kb", 1, "two"), 1);
        assertThat(c.pendingVersions(Duration.ofMinutes(5))).containsExactly(new DocumentVersion("d1", 1));
        assertThat(c.discard(new DocumentVersion("d1", 1))).isTrue();
        assertThat(c.discard(new DocumentVersion("d1", 1))).as("once").isFalse();
        assertThatThrownBy(() -> c.publish(new DocumentVersion("d1", 1))).isInstanceOf(IllegalStateException.class);
        assertThat(c.unpurgedVersions()).containsExactly(new DocumentVersion("d1", 1));
        c.markPurged(List.of(new DocumentVersion("d1", 1)));
        assertThat(c.unpurgedVersions()).isEmpty();
        assertThat(c.pendingVersions()).containsExactly(new DocumentVersion("d2", 1));
        assertThat(c.document("d1")).as("never visible, nothing pending: forgotten").isEmpty();
    }

    @Test
    void concurrent_first_versions_of_one_document_are_all_staged() throws Exception {
        CatalogAndJobs c = open();
        CountDownLatch start = new CountDownLatch(1);
        List<Long> versions = new CopyOnWriteArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                done.add(pool.submit(() -> {
                    start.await();
                    long v = c.nextVersion("d1");
                    c.stage(draft("d1", "kb", v, "text " + v), v);
                    versions.add(v);
                    return null;
                }));
            }
            start.countDown();
            for (var f : done) {
                f.get();
            }
        }
        assertThat(versions).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
        assertThat(c.pendingVersions()).hasSize(4);
    }

    @Test
    void jobs_written_since_a_time_are_listed_oldest_write_first() {
        CatalogAndJobs c = open();
        String a = c.jobStore().submit("t1", "ingest", "{}");
        clock.advance(Duration.ofSeconds(10));
        Instant mark = clock.instant();
        String b = c.jobStore().submit("t2", "ingest", "{}");
        clock.advance(Duration.ofSeconds(1));
        int attempt = c.jobStore().claim(Duration.ofMinutes(5), 3).orElseThrow().info().attempts();
        assertThat(c.jobStore().job(a).orElseThrow().status()).as("the oldest is claimed first")
                .isEqualTo(JobStatus.RUNNING);
        assertThat(c.jobStore().changedSince(mark, 10)).extracting(JobInfo::id).containsExactly(b, a);
        clock.advance(Duration.ofSeconds(1));
        c.jobStore().finish(a, attempt, JobStatus.SUCCEEDED, JobProgress.queued(), null);
        assertThat(c.jobStore().changedSince(mark, 10)).extracting(JobInfo::id).containsExactly(b, a);
        assertThat(c.jobStore().changedSince(mark, 1)).extracting(JobInfo::id).containsExactly(b);
        assertThat(c.jobStore().changedSince(clock.instant(), 10)).extracting(JobInfo::status).containsExactly(
                JobStatus.SUCCEEDED);
        assertThat(c.jobStore().changedSince(clock.instant().plusSeconds(1), 10)).isEmpty();
    }

    @Test
    void usage_adds_up_per_tenant_day_metric_and_model_and_stock_and_quotas_are_each_tenants_own() {
        CatalogAndJobs c = open();
        var day = LocalDate.of(2026, 12, 4);
        c.usageStore().addUsage("acme", day, List.of(new UsageStore.Count("searches", "", 2),
                new UsageStore.Count("answer_tokens_out", "gpt-x", 100)));
        c.usageStore().addUsage("acme", day, List.of(new UsageStore.Count("searches", "", 3)));
        c.usageStore().addUsage("acme", day.minusDays(40), List.of(new UsageStore.Count("searches", "", 50)));
        c.usageStore().addUsage("globex", day, List.of(new UsageStore.Count("searches", "", 7)));
        assertThat(c.usageStore().usage("acme", day.minusDays(30), day)).containsExactly(
                new UsageStore.Count("answer_tokens_out", "gpt-x", 100),
                new UsageStore.Count("searches", "", 5));
        assertThat(c.usageStore().usage("acme", day.minusDays(60), day)).contains(
                new UsageStore.Count("searches", "", 55));
        assertThat(c.usageStore().usageOfAll(day, day)).containsOnlyKeys("acme", "globex");
        assertThat(c.usageStore().usage("nobody", day, day)).isEmpty();

        for (String[] d : new String[][] {{"a1", "acme/lab"}, {"a2", "acme/other"}, {"g1", "globex/lab"},
                {"l1", "notes"}}) {
            long v = c.nextVersion(d[0]);
            c.stage(draft(d[0], d[1], v, "one", "two"), v);
            c.publish(new DocumentVersion(d[0], v));
        }
        long v = c.nextVersion("a3");
        c.stage(draft("a3", "acme/lab", v, "staged, never published"), v);
        assertThat(c.usageStore().stock("acme")).isEqualTo(new UsageStore.Stock(2, 4, 84));
        assertThat(c.usageStore().stock("")).as("the local tenant").isEqualTo(new UsageStore.Stock(1, 2, 42));
        assertThat(c.usageStore().stockOfAll()).containsOnlyKeys("", "acme", "globex");
        assertThat(c.usageStore().stock("initech")).isEqualTo(UsageStore.Stock.NONE);

        assertThat(c.usageStore().quotas("acme").none()).isTrue();
        c.usageStore().putQuotas("acme", new UsageStore.Quotas(100L, null, 5_000L, 60));
        c.usageStore().putQuotas("globex", new UsageStore.Quotas(null, 10L, null, null));
        assertThat(c.usageStore().quotas("acme")).isEqualTo(new UsageStore.Quotas(100L, null, 5_000L, 60));
        assertThat(c.usageStore().allQuotas()).containsOnlyKeys("acme", "globex");
        c.usageStore().putQuotas("acme", UsageStore.Quotas.NONE);
        assertThat(c.usageStore().quotas("acme").none()).isTrue();
        assertThat(c.usageStore().allQuotas()).containsOnlyKeys("globex");
    }
}
