package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.app.api.ReceivedFile;
import io.polyrag.app.api.TextIngest;
import io.polyrag.core.QuotaExceededException;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.model.KnowledgeBase;
import io.polyrag.core.model.Tenant;
import io.polyrag.core.port.UsageStore.Quotas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant's quota of documents stops its ingest job cleanly once reached: what was indexed stays, the files left
 * fail with the quota named, the job is partial; the next ingest is refused at once; another tenant goes on.
 */
class QuotaTest {
    @TempDir
    Path tmp;

    /**
     * Ingests running at once share what is left of a tenant's daily extraction tokens: each was granted all of it
     * (ten at once could spend ten times the quota).
     */
    @Test
    void concurrent_ingests_share_the_daily_extraction_allowance() {
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false")))) {
            p.usage().setQuotas("acme", new Quotas(null, null, 1000L, null));
            Usage.Grant first = p.usage().grantExtraction("acme", 0);
            assertThat(first.tokens()).isEqualTo(1000);
            assertThat(p.usage().grantExtraction("acme", 0).tokens()).as("all of it held by the first").isEqualTo(-1);
            p.usage().release(first);
            assertThat(p.usage().grantExtraction("acme", 600).tokens()).as("given back").isEqualTo(600);
            assertThat(p.usage().grantExtraction("acme", 0).tokens()).isEqualTo(400);
        }
    }

    /** A refused search or answer (an unknown knowledge base, a query past the limit) is not one of the minute's. */
    @Test
    void refused_searches_and_answers_do_not_use_up_the_minute() {
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false")))) {
            p.usage().setQuotas("acme", new Quotas(null, null, null, 1));
            var facets = p.as(Tenant.of("acme"));
            facets.ingest().text(new TextIngest("Terns nest on the skerry.", null, null, "text",
                    KnowledgeBase.of("notes")));
            var typo = io.polyrag.core.model.SearchRequest.builder("terns").knowledgeBases(List.of("nots")).build();
            var tooLong = io.polyrag.core.model.SearchRequest.of("tern ".repeat(2000), 5);
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> facets.search().run(typo)).isInstanceOf(
                        io.polyrag.core.NotFoundException.class);
                assertThatThrownBy(() -> facets.search().run(tooLong)).isInstanceOf(
                        io.polyrag.core.InvalidInputException.class);
                assertThatThrownBy(() -> facets.search().answer(typo, null)).isInstanceOf(
                        io.polyrag.core.NotFoundException.class);
            }
            assertThat(facets.search().run(io.polyrag.core.model.SearchRequest.of("terns", 5)).hits()).isNotEmpty();
            assertThatThrownBy(() -> facets.search().run(io.polyrag.core.model.SearchRequest.of("terns", 5)))
                    .isInstanceOf(QuotaExceededException.class);
        }
    }

    /** A sample check past the tenant's searches a minute is the same 429 as any search, not a check "failed". */
    @Test
    void a_sample_check_past_the_search_quota_is_refused_as_a_search_is() {
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false")))) {
            p.usage().setQuotas("acme", new Quotas(null, null, null, 1));
            var facets = p.as(Tenant.of("acme"));
            assertThatThrownBy(facets::sampleCheck).isInstanceOf(QuotaExceededException.class);
            assertThat(facets.knowledgeBases().list()).as("its knowledge base dropped all the same").isEmpty();
        }
    }

    @Test
    void an_upload_job_stops_at_the_documents_quota_and_is_partial() throws Exception {
        // One document a batch, so the job takes seconds and meets the limit half way.
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "ingest.batch.documents", "1")))) {
            Tenant acme = Tenant.of("acme");
            p.usage().setQuotas("acme", new Quotas(5L, null, null, null));
            var facets = p.as(acme);
            Path staging = facets.uploads().newStagingDir();
            List<ReceivedFile> files = new ArrayList<>();
            int n = 150;
            for (int i = 0; i < n; i++) {
                Path f = staging.resolve("f" + i);
                Files.writeString(f, "Field note " + i + ": the tern colony number " + i + " nested on skerry word"
                        + Integer.toString(i * 7919, 36) + " this spring. ".repeat(20));
                files.add(new ReceivedFile("note-" + i + ".txt", f));
            }
            String id = facets.uploads().submit(KnowledgeBase.of("notes"), staging, files, true);
            Awaitility.await().atMost(Duration.ofSeconds(120)).until(() -> facets.jobs().get(id).status().finished());
            JobInfo job = facets.jobs().get(id);
            int added = job.progress().added();
            assertThat(job.status()).as(String.valueOf(job.error())).isEqualTo(JobStatus.PARTIAL);
            assertThat(added).as("stopped before the end").isBetween(5, n - 1);
            assertThat(job.progress().failed()).isEqualTo(n - added);
            assertThat(job.progress().errors()).first().satisfies(e -> assertThat(e.reason())
                    .contains("not indexed: quota documents"));
            assertThat(job.progress().warnings()).anySatisfy(w -> assertThat(w).startsWith("stopped after"));
            assertThat(facets.documents().list(null, 0, 500)).as("what was indexed stays").hasSize(added);

            // At the quota, staging and ingesting staged files are refused at once like any ingest.
            Path more = facets.uploads().newStagingDir();
            Path extra = more.resolve("extra");
            Files.writeString(extra, "An extra field note.");
            assertThatThrownBy(() -> facets.uploads().stage(KnowledgeBase.of("notes"), List.of(new ReceivedFile(
                    "extra.txt", extra)))).isInstanceOf(QuotaExceededException.class);
            assertThatThrownBy(() -> facets.uploads().ingestStaged(List.of(java.util.UUID.randomUUID().toString()),
                    KnowledgeBase.of("notes"), true)).isInstanceOf(QuotaExceededException.class);

            assertThatThrownBy(() -> facets.ingest().text(new TextIngest("One more note.", null, null, "text", null)))
                    .isInstanceOf(QuotaExceededException.class).hasMessageContaining("quota documents");
            assertThat(p.as(Tenant.of("globex")).ingest().text(new TextIngest("Globex has no quota.", null, null,
                    "text", null)).added()).isEqualTo(1);
            assertThat(p.usage().report(acme, java.time.LocalDate.now(java.time.ZoneOffset.UTC),
                    java.time.LocalDate.now(java.time.ZoneOffset.UTC)).stock().documents()).isEqualTo(added);
        }
    }

    /** A stored-megabytes quota counts whole MiB, however large it is (times 2^20 it overflowed to negative). */
    @Test
    void a_stored_megabytes_quota_holds_at_any_size() {
        try (Polyrag p = Polyrag.open(Config.load(Map.of(), Map.of("data.dir", tmp.resolve("data").toString(),
                "vector.enabled", "false")))) {
            var acme = p.as(Tenant.of("acme"));
            p.usage().setQuotas("acme", new Quotas(null, Long.MAX_VALUE, null, null));
            assertThat(acme.ingest().text(new TextIngest("A note under a vast quota.", null, null, "text", null))
                    .added()).isEqualTo(1);
            p.usage().setQuotas("acme", new Quotas(null, 1L, null, null));
            String big = "Tide table entry for the skerry. ".repeat(40_000);
            assertThat(acme.ingest().text(new TextIngest(big, null, null, "text", null)).added()).isEqualTo(1);
            assertThatThrownBy(() -> acme.ingest().text(new TextIngest("One more.", null, null, "text", null)))
                    .isInstanceOf(QuotaExceededException.class).hasMessageContaining("quota stored_mb");
        }
    }
}
