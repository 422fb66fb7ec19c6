package io.polyrag.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.DocumentVersion;
import io.polyrag.core.model.SearchScope;
import io.polyrag.core.model.StoreHit;
import io.polyrag.core.model.StoreRecord;
import io.polyrag.core.port.FullTextStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The contract every {@link FullTextStore} passes; an implementation's test is a short subclass. */
public abstract class FullTextStoreContract {
    @TempDir
    protected Path dir;

    private final List<FullTextStore> opened = new ArrayList<>();

    protected abstract FullTextStore openStore(Path dir);

    protected FullTextStore open() {
        FullTextStore s = openStore(dir);
        opened.add(s);
        return s;
    }

    @AfterEach
    void closeAll() {
        opened.forEach(FullTextStore::close);
    }

    protected static StoreRecord rec(String chunk, String doc, long version, String kb, String text) {
        return new StoreRecord(chunk, doc, version, kb, text, null);
    }

    /**
     * A report in three passages, each holding one of the query's three words, beside a note whose one passage holds
     * two of them, and unrelated filler so the words are rare.
     */
    protected static List<StoreRecord> wholeTextCorpus() {
        List<StoreRecord> out = new ArrayList<>(List.of(
                rec("report#1", "report", 1, "kb", "Mountain report\nThe mountain erupted in spring."),
                rec("report#2", "report", 1, "kb", "Mountain report\nAsh fell on the valley for weeks."),
                rec("report#3", "report", 1, "kb", "Mountain report\nForecasting needs sensors on the slopes."),
                rec("note#1", "note", 1, "kb", "Field note\nAsh and more ash after the eruption.")));
        for (int i = 0; i < 20; i++) {
            out.add(rec("filler#" + i, "filler" + i, 1, "kb", "Garden diary\nTomatoes and beans, day " + i + "."));
        }
        return out;
    }

    private static DocumentVersion v(String documentId) {
        return new DocumentVersion(documentId, 1);
    }

    /** Whether the store under test keeps whole texts ({@link FullTextStore#searchDocuments}); false by default. */
    protected boolean keepsWholeTexts() {
        return false;
    }

    @Test
    void documents_rank_by_their_whole_text_where_passages_rank_by_their_own() {
        FullTextStore store = open();
        store.upsert(wholeTextCorpus());
        if (!keepsWholeTexts()) {
            assertThat(store.searchDocuments("ash eruption forecasting", SearchScope.ALL, 10)).isEmpty();
            return;
        }
        String query = "ash eruption forecasting";
        assertThat(store.search(query, SearchScope.ALL, 10).getFirst().documentId())
                .as("passage by passage, the note's one passage holds the most words").isEqualTo("note");
        assertThat(store.search(query, SearchScope.ALL, 10)).extracting(StoreHit::chunkId)
                .as("whole entries are never passages").allMatch(id -> !id.contains("#whole"));
        var documents = store.searchDocuments(query, SearchScope.ALL, 10);
        assertThat(documents.keySet()).as("the report holds all three words").containsExactly(v("report"), v("note"));
        assertThat(store.searchDocuments(query, SearchScope.ALL, 1).keySet()).containsExactly(v("report"));
        assertThat(store.searchDocuments(query, new SearchScope(Set.of("other")), 10))
                .as("the scope holds for whole entries too").isEmpty();
        assertThat(store.searchDocuments("...", SearchScope.ALL, 10)).isEmpty();
    }

    @Test
    void the_best_passage_of_each_document_asked_for() {
        FullTextStore store = open();
        store.upsert(wholeTextCorpus());
        if (!keepsWholeTexts()) {
            return;
        }
        assertThat(store.bestPassages("ash eruption forecasting", SearchScope.ALL, List.of(v("report"), v("note"),
                v("filler3"), v("absent")))).extracting(StoreHit::chunkId)
                .as("forecasting is the rarest word; the filler holds none").containsExactlyInAnyOrder("report#3",
                        "note#1");
        assertThat(store.bestPassages("ash eruption forecasting", SearchScope.ALL, List.of())).isEmpty();
        // A long document with many better-matching passages does not crowd out another's best one.
        List<StoreRecord> book = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            book.add(rec("book#" + i, "book", 1, "kb", "Ash, ash and eruption ash, chapter " + i + "."));
        }
        store.upsert(book);
        assertThat(store.bestPassages("ash eruption", SearchScope.ALL, List.of(v("book"), v("report"))))
                .extracting(StoreHit::documentId).containsExactlyInAnyOrder("book", "report");
        // An older version still in the store (not yet purged) with a better passage does not hide the one asked
        // for: version 2 of the book has a weaker passage, and it is the one found.
        store.upsert(List.of(rec("book-v2#0", "book", 2, "kb", "A quiet chapter; one eruption.")));
        assertThat(store.bestPassages("ash eruption", SearchScope.ALL, List.of(new DocumentVersion("book", 2))))
                .extracting(StoreHit::chunkId).containsExactly("book-v2#0");
    }

    @Test
    void whole_entries_are_not_records_and_go_with_their_version() {
        FullTextStore store = open();
        store.upsert(wholeTextCorpus());
        assertThat(store.size()).isEqualTo(24);
        store.ping(); // readiness's one read answers on every backend
        assertThat(store.versions()).containsEntry(new DocumentVersion("report", 1), 3L)
                .hasSize(22);
        assertThat(store.records(new DocumentVersion("report", 1))).isEqualTo(3);
        store.delete(List.of(new DocumentVersion("report", 1)));
        assertThat(store.size()).as("the whole entry left with the version's records").isEqualTo(21);
        store.deleteDocuments(List.of("note"));
        assertThat(store.size()).isEqualTo(20);
        assertThat(store.search("ash mountain", SearchScope.ALL, 10)).isEmpty();
    }

    private FullTextStore corpus() {
        FullTextStore store = open();
        store.upsert(List.of(
                rec("c1", "d1", 1, "kb", "The aurora borealis lights up the polar night sky."),
                rec("c2", "d2", 1, "kb", "Photosynthesis converts sunlight into chemical energy in plants."),
                rec("c3", "d3", 1, "kb", "Quasars are extremely luminous active galactic nuclei."),
                rec("c4", "d4", 1, "other", "Plants and sunlight: a gardener's notes on photosynthesis.")));
        return store;
    }

    @Test
    void equal_scores_at_the_cut_are_decided_by_chunk_id_not_by_insertion_order() {
        FullTextStore store = open();
        // The same text five times (boilerplate, a duplicated page): five equal scores, two places.
        for (String id : List.of("e5", "e2", "e4", "e1", "e3")) {
            store.upsert(List.of(rec(id, "d" + id, 1, "kb", "Lighthouse keepers trimmed the wicks at dusk.")));
        }
        store.upsert(List.of(rec("z9", "dz", 1, "kb", "Keepers of the lighthouse trimmed wicks and wicks again.")));
        List<StoreHit> hits = store.search("trimmed wicks", SearchScope.ALL, 3);
        assertThat(hits).hasSize(3);
        List<String> equal = hits.stream().filter(h -> !h.chunkId().equals("z9")).map(StoreHit::chunkId).toList();
        assertThat(equal).as("the smallest chunk ids of the tied ones, in order").isSubsetOf("e1", "e2", "e3")
                .isSorted();
        assertThat(equal.getFirst()).isEqualTo("e1");
    }

    @Test
    void finds_the_record_holding_a_rare_term_first() {
        FullTextStore store = corpus();
        List<StoreHit> hits = store.search("quasars galactic", SearchScope.ALL, 10);
        assertThat(hits).isNotEmpty();
        assertThat(hits.getFirst().chunkId()).isEqualTo("c3");
        assertThat(hits.getFirst().documentId()).isEqualTo("d3");
        assertThat(hits).isSortedAccordingTo(Comparator.comparingDouble(StoreHit::score).reversed());
    }

    /** A word inside a run of Chinese or Japanese characters (no spaces between words) is found, on every backend. */
    @Test
    void finds_a_word_inside_a_run_of_chinese_or_japanese_text() {
        FullTextStore store = open();
        store.upsert(List.of(rec("zh", "zh", 1, "kb", "我住在北京已经十年了。"), rec("ja", "ja", 1, "kb",
                "東京タワーは赤い。"), rec("en", "en", 1, "kb", "Beijing is the capital.")));
        assertThat(store.search("北京", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).first().isEqualTo("zh");
        assertThat(store.search("東京", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).first().isEqualTo("ja");
    }

    /**
     * A Katakana word is one token, its prolonged sound mark included, as the standard tokenizer cuts it: "タワー"
     * finds the tower, not "データ" by a shared ー, and "データ" is not found inside "データベース".
     */
    @Test
    void a_katakana_word_is_one_token_on_every_backend() {
        FullTextStore store = open();
        store.upsert(List.of(rec("tower", "tower", 1, "kb", "タワーの高さ"), rec("data", "data", 1, "kb", "データの設計"),
                rec("db", "db", 1, "kb", "データベースの索引")));
        assertThat(store.search("タワー", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).containsExactly("tower");
        assertThat(store.search("データ", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).containsExactly("data");
    }

    @Test
    void ranks_records_matching_more_query_terms_higher() {
        FullTextStore store = corpus();
        List<StoreHit> hits = store.search("photosynthesis chemical energy", SearchScope.ALL, 10);
        assertThat(hits).extracting(StoreHit::chunkId).startsWith("c2").contains("c4");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"aurora AND (night", "title:x* OR ~ ^2 [a TO b}", "\\", "){}[]", "*", "?",
        "aurora\"", "NOT", "-aurora", "a/b/c//", "&& ||", "\u0000aurora\u0007"})
    void treats_query_syntax_as_plain_text(String query) {
        FullTextStore store = corpus();
        List<StoreHit> hits = store.search(query, SearchScope.ALL, 10);
        // Operators are words or nothing: "-aurora" and "\"aurora AND (night" still find the aurora, and a query
        // whose only words are operators, stopwords or absent finds nothing.
        if (query.contains("aurora")) {
            assertThat(hits).extracting(StoreHit::chunkId).containsExactly("c1");
        } else {
            assertThat(hits).isEmpty();
        }
    }

    /**
     * A typographic apostrophe (Word's, a web page's) and a typed one are the same word, and so are a ligature and its
     * letters, a decomposed accent and the composed letter: "O'Brien" typed found nothing of "O’Brien".
     */
    @Test
    void typographic_and_typed_forms_match_each_other() {
        FullTextStore store = open();
        store.upsert(List.of(rec("c1", "d1", 1, "kb", "Mr O\u2019Brien signed the lease."),
                rec("c2", "d2", 1, "kb", "The \uFB01nance committee met at the cafe\u0301.")));
        assertThat(store.search("O'Brien", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).containsExactly("c1");
        assertThat(store.search("O\u2019Brien", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).containsExactly("c1");
        assertThat(store.search("finance", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).containsExactly("c2");
        assertThat(store.search("caf\u00e9", SearchScope.ALL, 5)).extracting(StoreHit::chunkId).containsExactly("c2");
    }

    @Test
    void a_query_of_only_stopwords_or_punctuation_finds_nothing() {
        FullTextStore store = corpus();
        assertThat(store.search("  ...  !!! ", SearchScope.ALL, 10)).isEmpty();
        assertThat(store.search("", SearchScope.ALL, 10)).isEmpty();
    }

    @Test
    void a_long_query_with_many_distinct_terms_still_works() {
        FullTextStore store = corpus();
        StringBuilder q = new StringBuilder("quasars");
        for (int i = 0; i < 5000; i++) {
            q.append(" term").append(i);
        }
        assertThat(store.search(q.toString(), SearchScope.ALL, 5)).extracting(StoreHit::chunkId).contains("c3");
        // With the scope's own filters beside the terms (a knowledge base of several, documents named): the clause
        // limit counts them too, and 1,024 terms with two filters failed the leg.
        SearchScope scoped = new SearchScope(Set.of("kb")).narrowed(Set.of("d3", "d1"), null);
        assertThat(store.search(q.toString(), scoped, 5)).extracting(StoreHit::chunkId).contains("c3");
        store.searchDocuments(q.toString(), scoped, 5);
        store.bestPassages(q.toString(), new SearchScope(Set.of("kb")), List.of(new DocumentVersion("d3", 1)));
    }

    @Test
    void search_sees_only_the_knowledge_bases_in_scope() {
        FullTextStore store = corpus();
        assertThat(store.search("photosynthesis", new SearchScope(Set.of("other")), 10))
                .extracting(StoreHit::chunkId).containsExactly("c4");
        // A scope naming every knowledge base the store holds finds what no scope finds.
        assertThat(store.search("photosynthesis", new SearchScope(Set.of("kb", "other", "absent")), 10))
                .extracting(StoreHit::chunkId).containsExactlyElementsOf(store.search("photosynthesis",
                        SearchScope.ALL, 10).stream().map(StoreHit::chunkId).toList());
    }

    /** A scope naming documents finds their records whatever outranks them elsewhere (every backend alike). */
    @Test
    void search_sees_only_the_documents_in_scope() {
        FullTextStore store = corpus();
        List<String> all = store.search("photosynthesis", SearchScope.ALL, 10).stream().map(StoreHit::documentId)
                .toList();
        assertThat(all).hasSizeGreaterThan(1);
        String last = all.getLast();
        assertThat(store.search("photosynthesis", new SearchScope(Set.of(), Set.of(last), null), 1))
                .extracting(StoreHit::documentId).containsExactly(last);
        assertThat(store.search("photosynthesis", new SearchScope(Set.of("kb", "other"), Set.of(last), null), 10))
                .extracting(StoreHit::documentId).containsOnly(last);
        assertThat(store.search("photosynthesis", new SearchScope(Set.of(), Set.of("absent"), null), 10)).isEmpty();
    }

    @Test
    void upsert_replaces_and_delete_removes_by_version() {
        FullTextStore store = corpus();
        store.upsert(List.of(rec("c1", "d1", 1, "kb", "Now about glaciers instead.")));
        assertThat(store.search("aurora", SearchScope.ALL, 10)).isEmpty();
        assertThat(store.search("glaciers", SearchScope.ALL, 10)).extracting(StoreHit::chunkId).containsExactly("c1");
        store.upsert(List.of(rec("d1-v2-0", "d1", 2, "kb", "Glaciers, second version.")));
        assertThat(store.versions()).containsOnly(Map.entry(new DocumentVersion("d1", 1), 1L),
                Map.entry(new DocumentVersion("d1", 2), 1L), Map.entry(new DocumentVersion("d2", 1),
                        1L), Map.entry(new DocumentVersion("d3", 1), 1L),
                Map.entry(new DocumentVersion("d4", 1), 1L));
        store.delete(List.of(new DocumentVersion("d1", 1)));
        assertThat(store.versions()).doesNotContainKey(new DocumentVersion("d1", 1)).hasSize(4);
        assertThat(store.search("glaciers", SearchScope.ALL, 10)).extracting(StoreHit::chunkId)
                .containsExactly("d1-v2-0");
        store.deleteDocuments(List.of("d1", "d2"));
        assertThat(store.size()).isEqualTo(2);
        assertThat(store.search("glaciers photosynthesis", SearchScope.ALL, 10)).extracting(StoreHit::chunkId)
                .containsExactly("c4");
    }

    @Test
    void equal_scores_are_ordered_by_chunk_id() {
        FullTextStore store = open();
        store.upsert(List.of(rec("z", "d1", 1, "kb", "identical words here"),
                rec("m", "d2", 1, "kb", "identical words here"), rec("a", "d3", 1, "kb", "identical words here")));
        assertThat(store.search("identical words", SearchScope.ALL, 3)).extracting(StoreHit::chunkId)
                .containsExactly("a", "m", "z");
    }

    @Test
    void written_records_survive_a_reopen() {
        FullTextStore first = openStore(dir);
        first.upsert(List.of(rec("c1", "d1", 1, "kb", "persistent zeppelin")));
        first.close();
        assertThat(open().search("zeppelin", SearchScope.ALL, 1)).extracting(StoreHit::chunkId).containsExactly("c1");
    }
}
