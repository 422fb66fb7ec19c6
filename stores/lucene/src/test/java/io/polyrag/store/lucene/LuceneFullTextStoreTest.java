package io.polyrag.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.UnavailableException;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.testing.FullTextStoreContract;
import io.polyrag.testing.SmallDisk;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LuceneFullTextStoreTest extends FullTextStoreContract {
    @Override
    protected FullTextStore openStore(Path dir) {
        return new LuceneFullTextStore(dir.resolve("fulltext"), 0.9, 0.4);
    }

    @Override
    protected boolean keepsWholeTexts() {
        return true;
    }

    @Test
    void an_index_written_before_whole_entries_answers_no_document_search_until_it_is_written_again()
            throws Exception {
        Path old = dir.resolve("before");
        try (var w = new org.apache.lucene.index.IndexWriter(org.apache.lucene.store.FSDirectory.open(old),
                new org.apache.lucene.index.IndexWriterConfig(new org.apache.lucene.analysis.en.EnglishAnalyzer()))) {
            for (var r : wholeTextCorpus()) {
                w.addDocument(earlier(r.chunkId(), r.documentId(), r.version(), r.text(), true));
            }
            w.commit();
        }
        String query = "ash eruption forecasting";
        try (FullTextStore store = new LuceneFullTextStore(old, 0.9, 0.4)) {
            store.upsert(List.of(rec("late#1", "late", 1, "kb", "Ash and eruption, forecasting them.")));
            assertThat(store.searchDocuments(query, SearchScope.ALL, 10))
                    .as("documents are not ranked by the few the index has whole texts of").isEmpty();
            List<io.polyrag.core.model.StoreRecord> all = wholeTextCorpus();
            store.delete(all.stream().map(io.polyrag.core.model.StoreRecord::documentVersion).distinct().toList());
            store.upsert(all);
            assertThat(store.searchDocuments(query, SearchScope.ALL, 10).keySet()).first()
                    .isEqualTo(new io.polyrag.core.model.DocumentVersion("late", 1));
        }
    }

    /**
     * A record as an earlier release wrote it: identity in stored fields; with {@code docValues}, the document id and
     * version in sorted and numeric doc values too (the release before the binary ids), else none for them (before).
     */
    private static org.apache.lucene.document.Document earlier(String chunk, String doc, long version, String text,
            boolean docValues) {
        var d = new org.apache.lucene.document.Document();
        d.add(new org.apache.lucene.document.StringField(LuceneIndex.CHUNK_ID, chunk,
                org.apache.lucene.document.Field.Store.YES));
        d.add(new org.apache.lucene.document.SortedDocValuesField(LuceneIndex.CHUNK_ID,
                new org.apache.lucene.util.BytesRef(chunk)));
        d.add(new org.apache.lucene.document.StringField(LuceneIndex.DOC_ID, doc,
                org.apache.lucene.document.Field.Store.YES));
        d.add(new org.apache.lucene.document.StringField(LuceneIndex.DOC_VERSION, doc + "@" + version,
                org.apache.lucene.document.Field.Store.NO));
        d.add(new org.apache.lucene.document.StoredField(LuceneIndex.VERSION, version));
        d.add(new org.apache.lucene.document.StringField(LuceneIndex.KB, "kb",
                org.apache.lucene.document.Field.Store.NO));
        d.add(new org.apache.lucene.document.TextField(LuceneFullTextStore.BODY, text,
                org.apache.lucene.document.Field.Store.NO));
        if (docValues) {
            d.add(new org.apache.lucene.document.SortedDocValuesField(LuceneIndex.DOC_ID_VALUES,
                    new org.apache.lucene.util.BytesRef(doc)));
            d.add(new org.apache.lucene.document.NumericDocValuesField(LuceneIndex.VERSION_VALUES, version));
        }
        return d;
    }

    @Test
    void hits_of_documents_written_before_identity_doc_values_keep_their_ids_and_versions() throws Exception {
        // Records as the two earlier formats held them, beside one written now.
        Path old = dir.resolve("old");
        try (var w = new org.apache.lucene.index.IndexWriter(org.apache.lucene.store.FSDirectory.open(old),
                new org.apache.lucene.index.IndexWriterConfig(new org.apache.lucene.analysis.en.EnglishAnalyzer()))) {
            w.addDocument(earlier("c-old", "d-old", 3, "Lanterns of the old harbour.", false));
            w.addDocument(earlier("c-mid", "d-mid", 5, "Lanterns of the mid harbour.", true));
            w.commit();
        }
        try (FullTextStore store = new LuceneFullTextStore(old, 0.9, 0.4)) {
            store.upsert(List.of(rec("c-new", "d-new", 7, "kb", "Lanterns of the new harbour.")));
            assertThat(store.search("harbour lanterns", SearchScope.ALL, 5)).extracting(StoreHit::chunkId,
                    StoreHit::documentId, StoreHit::version).containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple("c-old", "d-old", 3L),
                            org.assertj.core.groups.Tuple.tuple("c-mid", "d-mid", 5L),
                            org.assertj.core.groups.Tuple.tuple("c-new", "d-new", 7L));
        }
        // Merged into one segment, the three kinds of document sit side by side and are still read right.
        try (var w = new org.apache.lucene.index.IndexWriter(org.apache.lucene.store.FSDirectory.open(old),
                new org.apache.lucene.index.IndexWriterConfig(new org.apache.lucene.analysis.en.EnglishAnalyzer()))) {
            w.forceMerge(1);
            w.commit();
        }
        try (FullTextStore store = new LuceneFullTextStore(old, 0.9, 0.4)) {
            assertThat(store.search("harbour lanterns", SearchScope.ALL, 5)).extracting(StoreHit::chunkId,
                    StoreHit::documentId, StoreHit::version).containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple("c-old", "d-old", 3L),
                            org.assertj.core.groups.Tuple.tuple("c-mid", "d-mid", 5L),
                            org.assertj.core.groups.Tuple.tuple("c-new", "d-new", 7L));
        }
    }

    @Test
    void matches_inflected_forms_through_stemming() {
        FullTextStore store = open();
        store.upsert(List.of(rec("c1", "d1", 1, "kb", "The runners were running through the forests.")));
        assertThat(store.search("forest run", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).containsExactly("c1");
    }

    @Test
    void searches_score_with_the_configured_bm25_parameters() {
        // k1 0 ignores term frequency and b 0 ignores length: both chunks must score the same. Lucene's default
        // (k1 1.2, b 0.75) would rank the short one first.
        try (FullTextStore store = new LuceneFullTextStore(dir.resolve("flat"), 0.0, 0.0)) {
            store.upsert(List.of(rec("short", "d1", 1, "kb", "apple"),
                    rec("long", "d2", 1, "kb", "apple apple apple banana cherry date elderberry fig grape")));
            List<StoreHit> hits = store.search("apple", SearchScope.ALL, 5);
            assertThat(hits).hasSize(2);
            assertThat(hits.get(0).score()).isEqualTo(hits.get(1).score());
        }
        try (FullTextStore store = new LuceneFullTextStore(dir.resolve("normed"), 1.2, 1.0)) {
            store.upsert(List.of(rec("short", "d1", 1, "kb", "apple"),
                    rec("long", "d2", 1, "kb", "apple banana cherry date elderberry fig grape")));
            assertThat(store.search("apple", SearchScope.ALL, 5)).extracting(StoreHit::chunkId)
                    .containsExactly("short", "long");
        }
    }

    @Test
    void a_second_writer_on_the_same_directory_is_told_it_is_in_use() {
        open();
        assertThatThrownBy(() -> openStore(dir)).isInstanceOf(UnavailableException.class)
                .hasMessageContaining("already in use");
    }

    @Test
    void a_missing_commit_point_sets_the_files_aside_instead_of_letting_lucene_delete_them() throws Exception {
        Path path = dir.resolve("damaged");
        try (FullTextStore store = new LuceneFullTextStore(path, 0.9, 0.4)) {
            store.upsert(List.of(rec("c1", "d1", 1, "kb", "persistent zeppelin")));
        }
        try (var files = java.nio.file.Files.list(path)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("segments_")).toList()) {
                java.nio.file.Files.delete(f);
            }
        }
        try (FullTextStore store = new LuceneFullTextStore(path, 0.9, 0.4)) {
            assertThat(store.size()).isZero();
            store.upsert(List.of(rec("c2", "d2", 1, "kb", "a fresh start")));
            assertThat(store.size()).isEqualTo(1);
        }
        List<Path> aside;
        try (var siblings = java.nio.file.Files.list(dir)) {
            aside = siblings.filter(f -> f.getFileName().toString().startsWith("damaged.damaged-")).toList();
        }
        assertThat(aside).hasSize(1);
        try (var kept = java.nio.file.Files.list(aside.getFirst())) {
            assertThat(kept.map(f -> f.getFileName().toString())).as("the old segment files are kept")
                    .anyMatch(f -> f.startsWith("_0"));
        }
    }

    /**
     * Segment files without a commit point while another process holds the index (its first commit being written)
     * are left where they are: this one is refused as the index being in use, before it touches a file.
     */
    @Test
    void files_without_a_commit_point_under_another_writer_are_not_moved_aside() throws Exception {
        Path path = dir.resolve("busy");
        java.nio.file.Files.createDirectories(path);
        try (var d = org.apache.lucene.store.FSDirectory.open(path);
                var lock = d.obtainLock(org.apache.lucene.index.IndexWriter.WRITE_LOCK_NAME)) {
            java.nio.file.Files.writeString(path.resolve("_0.cfs"), "a segment being written");
            assertThatThrownBy(() -> new LuceneFullTextStore(path, 0.9, 0.4)).isInstanceOf(UnavailableException.class)
                    .hasMessageContaining("already in use");
            assertThat(path.resolve("_0.cfs")).exists();
        }
    }

    /** A first commit cut short (its pending commit point written, never renamed) lost nothing: no damage said. */
    @Test
    void a_first_commit_cut_short_starts_empty_without_calling_it_damage() throws Exception {
        Path path = dir.resolve("first");
        try (FullTextStore store = new LuceneFullTextStore(path, 0.9, 0.4)) {
            store.upsert(List.of(rec("c1", "d1", 1, "kb", "never committed")));
        }
        try (var files = java.nio.file.Files.list(path)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("segments_")).toList()) {
                java.nio.file.Files.move(f, f.resolveSibling("pending_" + f.getFileName()));
            }
        }
        try (FullTextStore store = new LuceneFullTextStore(path, 0.9, 0.4)) {
            assertThat(store.size()).isZero();
        }
        try (var siblings = java.nio.file.Files.list(dir)) {
            assertThat(siblings.map(f -> f.getFileName().toString())).noneMatch(f -> f.startsWith("first.damaged-"));
        }
    }

    /**
     * A kill -9 during the first ingest, after its flush wrote the segment files and before any commit point: no
     * marker of a commit, so nothing was lost. It was set aside as damage, the operator sent to a repair of nothing.
     */
    @Test
    void segment_files_of_an_index_never_committed_start_empty_without_calling_it_damage() throws Exception {
        Path path = dir.resolve("flushed");
        try (FullTextStore store = new LuceneFullTextStore(path, 0.9, 0.4)) {
            store.upsert(List.of(rec("c1", "d1", 1, "kb", "flushed, never committed")));
        }
        assertThat(path.resolve(DamagedIndex.COMMITTED)).exists();
        try (var files = java.nio.file.Files.list(path)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("segments_")
                    || f.getFileName().toString().equals(DamagedIndex.COMMITTED)).toList()) {
                java.nio.file.Files.delete(f);
            }
        }
        try (FullTextStore store = new LuceneFullTextStore(path, 0.9, 0.4)) {
            assertThat(store.size()).isZero();
            store.upsert(List.of(rec("c2", "d2", 1, "kb", "the first real commit")));
            assertThat(store.size()).isEqualTo(1);
        }
        try (var siblings = java.nio.file.Files.list(dir)) {
            assertThat(siblings.map(f -> f.getFileName().toString())).noneMatch(f -> f.startsWith("flushed.damaged-"));
        }
    }

    @Test
    void writes_fail_with_the_cause_while_the_disk_is_full_and_work_again_once_it_is_freed() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir, 8)) {
            try (FullTextStore store = new LuceneFullTextStore(disk.path().resolve("fulltext"), 0.9, 0.4)) {
                store.upsert(List.of(rec("c1", "d1", 1, "kb", "committed before the disk filled")));
                disk.fill(16 * 1024);
                String big = "word ".repeat(200_000);
                assertThatThrownBy(() -> store.upsert(List.of(rec("c2", "d2", 1, "kb", big))))
                        .isInstanceOf(io.polyrag.core.StoreException.class)
                        .hasMessageStartingWith("no space left on device at " + disk.path().resolve("fulltext"))
                        .hasMessageContaining("free some space");
                assertThat(store.search("committed disk", SearchScope.ALL, 5)).extracting(StoreHit::chunkId)
                        .as("search keeps serving what was committed").containsExactly("c1");
                disk.free();
                store.upsert(List.of(rec("c3", "d3", 1, "kb", "written after space was freed")));
                assertThat(store.search("freed", SearchScope.ALL, 5)).extracting(StoreHit::chunkId)
                        .containsExactly("c3");
                assertThat(store.size()).as("nothing of the failed write was committed later").isEqualTo(2);
            }
        }
    }

    @Test
    void a_read_only_folder_is_named_with_the_cause_and_the_fix_and_opens_once_writable() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir, 8)) {
            Path path = disk.path().resolve("fulltext");
            try (FullTextStore store = new LuceneFullTextStore(path, 0.9, 0.4)) {
                store.upsert(List.of(rec("c1", "d1", 1, "kb", "committed while writable")));
            }
            disk.readOnly(true);
            assertThatThrownBy(() -> new LuceneFullTextStore(path, 0.9, 0.4))
                    .hasMessageStartingWith("cannot write to " + path).hasMessageContaining("read-only")
                    .hasMessageContaining("fix its permissions");
            disk.readOnly(false);
            try (FullTextStore store = new LuceneFullTextStore(path, 0.9, 0.4)) {
                assertThat(store.search("writable", SearchScope.ALL, 5)).extracting(StoreHit::chunkId)
                        .containsExactly("c1");
            }
        }
    }
}
