package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.polyrag.app.api.SourceRegistration;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.ConflictException;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.SearchRequest;
import io.polyrag.core.model.Tenant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first key keeps what was indexed before it: {@code keys create TENANT --adopt-local} makes local mode's data the
 * tenant's (knowledge bases, documents, jobs, sources), and what the command line indexes later too; a key made
 * without it warns, naming what it leaves behind.
 */
class AdoptLocalTest {
    @TempDir
    Path tmp;

    private Polyrag polyrag;

    @AfterEach
    void close() {
        if (polyrag != null) {
            polyrag.close();
        }
    }

    private Polyrag open() throws Exception {
        Path notes = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(notes.resolve("kiln.md"), "The kiln is fired on Thursdays at 1,200 degrees.");
        return Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("sync.allowed.roots", notes.toString())));
    }

    private Polyrag.TenantFacets tenantOf(Keys.Created k) {
        return polyrag.as(polyrag.keys().authenticate(k.key()).orElseThrow());
    }

    private static String firstTitle(Polyrag.TenantFacets t, String q) {
        var hits = t.search().run(SearchRequest.of(q, 3)).hits();
        return hits.isEmpty() ? null : hits.getFirst().title();
    }

    @Test
    void a_tenant_that_adopts_local_mode_sees_everything_indexed_before_its_first_key_and_after() throws Exception {
        polyrag = open();
        polyrag.ingest().text(new TextIngest("Quokkas live on Rottnest Island.", "Quokka", null, null,
                KnowledgeBase.of("wildlife")));
        var source = polyrag.sources().register(new SourceRegistration("notes", "filesystem", Map.of("root",
                tmp.resolve("notes").toString()), "studio", null, true));
        await().atMost(Duration.ofSeconds(60)).until(() -> polyrag.jobs().get(source.jobId()).status().finished());

        Keys.Created acme = polyrag.keys().create("acme", "laptop", true);
        assertThat(acme.localOwner()).isTrue();
        assertThat(acme.warnings()).isEmpty();
        assertThat(polyrag.keys().localOwner()).contains("acme");
        Polyrag.TenantFacets t = tenantOf(acme);
        assertThat(polyrag.keys().authenticate(acme.key()).orElseThrow().name()).as("logs name it").isEqualTo("acme");
        assertThat(firstTitle(t, "where do quokkas live")).isEqualTo("Quokka");
        assertThat(t.knowledgeBases().list()).extracting(k -> k.name()).contains("wildlife", "studio");
        assertThat(t.sources().list()).extracting(s -> s.id()).containsExactly("notes");
        assertThat(t.jobs().list(0, 10)).extracting(j -> j.id()).contains(source.jobId());
        var sync = t.jobs().get(source.jobId());
        assertThat(sync.source()).as("a sync job names its source").isEqualTo("notes");
        assertThat(sync.knowledgeBase()).isEqualTo("studio");
        assertThat(sync.startedAt()).isNotNull();
        assertThat(t.search().run(SearchRequest.of("kiln fired", 3)).hits()).isNotEmpty();

        // What the command line (and serve --watch) indexes after the key is the tenant's too.
        polyrag.ingest().text(new TextIngest("Wombats dig long burrows with their claws.", "Wombat", null, null,
                KnowledgeBase.of("wildlife")));
        assertThat(firstTitle(t, "wombat burrows")).isEqualTo("Wombat");
        // Every key of the tenant acts so, not just the first.
        assertThat(firstTitle(tenantOf(polyrag.keys().create("acme", "ci")), "wombat burrows")).isEqualTo("Wombat");

        // The adopter holds local mode's rows, not the operator's folders or jobs: local mode's folder (open to the
        // command line) is not open to acme's key, and the operator's back-fill is neither listed nor cancellable.
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.sources().register(new SourceRegistration("more",
                "filesystem", Map.of("root", tmp.resolve("notes").toString()), "studio", null, true)))
                .isInstanceOf(io.polyrag.core.InvalidInputException.class).hasMessageContaining("SYNC_TENANT_ROOTS");
        String backfill = polyrag.admin().reindex("fulltext", false);
        assertThat(t.jobs().list(0, 50)).extracting(j -> j.id()).doesNotContain(backfill);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.jobs().cancel(backfill))
                .isInstanceOf(io.polyrag.core.NotFoundException.class);
        assertThat(polyrag.jobs().list(0, 50)).as("local mode itself sees it").extracting(j -> j.id())
                .contains(backfill);

        // Another tenant stays apart, and cannot take local mode's data now that acme has it.
        Keys.Created globex = polyrag.keys().create("globex", null);
        assertThat(globex.localOwner()).isFalse();
        assertThat(globex.warnings()).as("local data has an owner: nothing is left behind").isEmpty();
        assertThat(tenantOf(globex).search().run(SearchRequest.of("quokkas wombats kiln", 5)).hits()).isEmpty();
        assertThatThrownBy(() -> polyrag.keys().create("globex", null, true)).isInstanceOf(ConflictException.class)
                .hasMessageContaining("belongs to tenant 'acme'");
        assertThat(polyrag.keys().create("acme", null, true).localOwner()).as("adopting again is harmless").isTrue();
    }

    /**
     * A tenant that adopts local mode's data after its first key keeps the quotas set on it: they stayed under its
     * name, which nothing read once its rows became the local tenant's, and its limit stopped applying.
     */
    @Test
    void a_tenants_quotas_go_with_it_when_it_adopts_local_mode() throws Exception {
        polyrag = open();
        polyrag.ingest().text(new TextIngest("Quokkas live on Rottnest Island.", "Quokka", null, null,
                KnowledgeBase.of("wildlife")));
        Keys.Created first = polyrag.keys().create("acme", "laptop");
        assertThat(first.localOwner()).isFalse();
        polyrag.usage().setQuotas(io.polyrag.core.model.Tenant.of("acme").id(),
                new io.polyrag.core.port.UsageStore.Quotas(null, null, null, 7));
        Keys.Created adopting = polyrag.keys().create("acme", "ci", true);
        assertThat(adopting.localOwner()).isTrue();
        assertThat(polyrag.usage().quotas("").searchesPerMinute()).as("the limit set on acme").isEqualTo(7);
    }

    /**
     * A tenant with a queued upload or a conversation of its own cannot adopt local mode's data: the upload ran as
     * a tenant no key acted for any more (its job and knowledge base out of reach), the conversation vanished.
     */
    @Test
    void a_tenant_with_a_queued_job_or_a_conversation_cannot_adopt() throws Exception {
        Path notes = Files.createDirectories(tmp.resolve("notes"));
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("ingest.workers", "0")));
        polyrag.ingest().text(new TextIngest("Quokkas live on Rottnest Island.", "Quokka", null, null,
                KnowledgeBase.of("wildlife")));
        Keys.Created first = polyrag.keys().create("acme", "laptop");
        var acme = tenantOf(first);
        Path staging = acme.uploads().newStagingDir();
        Path f = Files.writeString(staging.resolve("f"), "Kiln notes.");
        acme.uploads().submit(KnowledgeBase.of("kilns"), staging, List.of(new io.polyrag.app.api.ReceivedFile(
                "kiln.txt", f)), true);
        assertThatThrownBy(() -> polyrag.keys().create("acme", "ci", true)).isInstanceOf(
                io.polyrag.core.ConflictException.class).hasMessageContaining("unfinished jobs");
        Keys.Created other = polyrag.keys().create("globex", "laptop");
        tenantOf(other).conversations().append("talk", List.of(new Conversations.Message("user", "hello")));
        assertThatThrownBy(() -> polyrag.keys().create("globex", "ci", true)).isInstanceOf(
                io.polyrag.core.ConflictException.class).hasMessageContaining("conversations");
        assertThat(notes).exists();
        // `polyrag keys create --adopt-local` opens the catalog alone: it refuses alike.
        polyrag.close();
        polyrag = null;
        try (Polyrag.KeyAdmin keys = Polyrag.openKeys(PolyragTest.config(tmp.resolve("data"), Map.of()))) {
            assertThatThrownBy(() -> keys.keys().create("acme", "ci", true)).isInstanceOf(ConflictException.class)
                    .hasMessageContaining("unfinished jobs");
            assertThatThrownBy(() -> keys.keys().create("globex", "ci", true)).isInstanceOf(ConflictException.class)
                    .hasMessageContaining("conversations");
        }
    }

    /** A filesystem source the adopter registers reads the adopter's folders when it syncs, not the operator's. */
    @Test
    void a_source_the_adopter_registers_syncs_within_the_adopters_folders() throws Exception {
        Path notes = Files.createDirectories(tmp.resolve("notes"));
        Path acmeDir = Files.createDirectories(tmp.resolve("acme-files"));
        Files.writeString(acmeDir.resolve("glaze.md"), "The celadon glaze needs a reduction firing.");
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("sync.allowed.roots",
                notes.toString(), "sync.tenant.roots", "acme=" + acmeDir)));
        Polyrag.TenantFacets t = tenantOf(polyrag.keys().create("acme", "laptop", true));
        var source = t.sources().register(new SourceRegistration("glazes", "filesystem", Map.of("root",
                acmeDir.toString()), "studio", null, true));
        var job = await().atMost(Duration.ofSeconds(60)).until(() -> t.jobs().get(source.jobId()),
                j -> j.status().finished());
        assertThat(job.status()).as(String.valueOf(job.error())).isEqualTo(io.polyrag.core.model.JobStatus.SUCCEEDED);
        assertThat(job.progress().added()).isEqualTo(1);
        assertThat(firstTitle(t, "celadon glaze reduction")).isNotNull();
    }

    /**
     * A source registered before the adoption and re-pointed by the adopter syncs within the adopter's folders: it
     * kept local mode's, so a link the adopter placed in its own folder reached another tenant's.
     */
    @Test
    void a_source_the_adopter_repoints_syncs_within_the_adopters_folders() throws Exception {
        Path notes = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(notes.resolve("kiln.md"), "The kiln is fired on Thursdays.");
        Path acmeDir = Files.createDirectories(tmp.resolve("acme-files/x"));
        Path globex = Files.createDirectories(tmp.resolve("globex-files"));
        Files.writeString(globex.resolve("secret.md"), "Globex's quarterly figures are confidential.");
        Files.createSymbolicLink(acmeDir.resolve("l"), globex);
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("sync.allowed.roots", tmp.toString(),
                "sync.tenant.roots", "acme=" + tmp.resolve("acme-files") + ";globex=" + globex)));
        var before = polyrag.sources().register(new SourceRegistration("old", "filesystem", Map.of("root",
                notes.toString()), "studio", null, true));
        await().atMost(Duration.ofSeconds(60)).until(() -> polyrag.jobs().get(before.jobId()).status().finished());
        Polyrag.TenantFacets t = tenantOf(polyrag.keys().create("acme", "laptop", true));
        var moved = t.sources().update(new SourceRegistration("old", "filesystem", Map.of("root", acmeDir.toString(),
                "follow_symlinks", true), "studio", null, true));
        var job = await().atMost(Duration.ofSeconds(60)).until(() -> t.jobs().get(moved.jobId()),
                j -> j.status().finished());
        assertThat(job.progress().errors()).as(String.valueOf(job)).anySatisfy(e -> assertThat(e.reason())
                .contains("outside"));
        assertThat(t.search().run(SearchRequest.of("Globex quarterly figures confidential", 5)).hits())
                .noneSatisfy(h -> assertThat(h.text()).contains("confidential"));
    }

    @Test
    void a_key_made_without_adopting_warns_and_a_tenant_with_data_of_its_own_cannot_adopt() throws Exception {
        polyrag = open();
        polyrag.ingest().text(new TextIngest("Quokkas live on Rottnest Island.", "Quokka", null, null,
                KnowledgeBase.of("wildlife")));
        Keys.Created beta = polyrag.keys().create("beta", null);
        assertThat(beta.localOwner()).isFalse();
        assertThat(beta.warnings()).singleElement().asString().contains("1 document in 1 knowledge base")
                .contains("--adopt-local");
        assertThat(firstTitle(tenantOf(beta), "where do quokkas live")).isNull();
        tenantOf(beta).ingest().text(new TextIngest("Beta's own note.", "Note", null, null, null));
        assertThatThrownBy(() -> polyrag.keys().create("beta", null, true)).isInstanceOf(ConflictException.class)
                .hasMessageContaining("of its own");
        assertThat(polyrag.keys().localOwner()).isEmpty();
        assertThat(Tenant.of("beta").namespace()).isEqualTo("beta/");
        assertThat(Tenant.adopting("beta").namespace()).isEmpty();
    }

    /**
     * Local mode's data not yet visible is hidden all the same: an upload queued (no document published yet) and a
     * conversation. The first key without adopting warned of nothing.
     */
    @Test
    void a_key_made_without_adopting_warns_of_queued_uploads_and_conversations_too() throws Exception {
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("ingest.workers", "0")));
        Path staging = polyrag.uploads().newStagingDir();
        Path f = Files.writeString(staging.resolve("f"), "Kiln notes.");
        polyrag.uploads().submit(KnowledgeBase.of("kilns"), staging, List.of(new io.polyrag.app.api.ReceivedFile(
                "kiln.txt", f)), true);
        polyrag.as(io.polyrag.core.model.Tenant.LOCAL).conversations().append("talk", List.of(
                new Conversations.Message("user", "hello")));
        Keys.Created key = polyrag.keys().create("acme", null);
        assertThat(key.warnings()).singleElement().asString().contains("1 unfinished job").contains("conversations")
                .contains("--adopt-local");
    }

    /** The operator's back-fill runs as local mode but is no data of local mode's: a key made meanwhile warns of none. */
    @Test
    void an_operators_backfill_is_no_local_data_to_warn_of() throws Exception {
        polyrag = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("ingest.workers", "0")));
        polyrag.admin().reindex(null, false);
        assertThat(polyrag.keys().create("acme", null).warnings()).isEmpty();
    }
}
