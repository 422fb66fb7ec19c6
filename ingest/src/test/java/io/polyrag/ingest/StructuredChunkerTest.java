package io.polyrag.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Block;
import io.polyrag.core.model.ChunkDraft;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.port.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StructuredChunkerTest {
    /** One token per whitespace-separated word: makes sizes in these tests easy to reason about. */
    private static final TokenCounter WORDS = t -> t.isBlank() ? 0 : t.strip().split("\\s+").length;

    /**
     * A text longer than a chunk could ever hold (more than 16 characters a token) is never handed to the model's
     * tokenizer whole: a 30 MB line or a 40-million-character sheet took gigabytes to be counted, then cut anyway.
     */
    @Test
    void the_tokenizer_never_counts_what_cannot_fit_a_chunk() {
        int[] longest = {0};
        TokenCounter recording = t -> {
            longest[0] = Math.max(longest[0], t.length());
            return WORDS.count(t);
        };
        StructuredChunker chunker = new StructuredChunker(recording, 300, 30);
        String prose = "word ".repeat(200_000);
        StringBuilder table = new StringBuilder("a,b\n");
        for (int i = 0; i < 50_000; i++) {
            table.append("cell").append(i).append(",value").append(i).append('\n');
        }
        List<ChunkDraft> chunks = chunker.chunk(doc(new Block(ChunkKind.PROSE, prose.strip(), List.of(), 0, 0, ""),
                new Block(ChunkKind.TABLE, table.toString().strip(), List.of(), 0, 0, "")));
        assertThat(chunks).hasSizeGreaterThan(100);
        assertThat(longest[0]).as("the longest text counted").isLessThanOrEqualTo(300 * 16);
    }

    /**
     * A long paragraph without a line break (text whose whitespace a client normalised, a one-line file) is chunked in
     * linear time: each of its sentences looked for a line break to the end of the text, hours for 64 MB.
     */
    @Test
    void a_long_paragraph_without_line_breaks_is_chunked_in_linear_time() {
        StringBuilder prose = new StringBuilder();
        for (int i = 0; prose.length() < 8_000_000; i++) {
            prose.append("Sentence number ").append(i).append(" is here. ");
        }
        StructuredChunker chunker = new StructuredChunker(WORDS, 300, 30);
        List<ChunkDraft> chunks = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration
                .ofSeconds(10), () -> chunker.chunk(doc(new Block(ChunkKind.PROSE, prose.toString().strip(), List.of(),
                        0, 0, ""))));
        assertThat(chunks).hasSizeGreaterThan(1_000);
    }

    /** Builds a parsed document whose block offsets are right, the way parsers do. */
    private static ParsedDocument doc(Block... blocks) {
        StringBuilder text = new StringBuilder();
        List<Block> placed = new ArrayList<>();
        for (Block b : blocks) {
            if (!text.isEmpty()) {
                text.append("\n\n");
            }
            int start = text.length();
            text.append(b.text());
            placed.add(new Block(b.kind(), b.text(), b.headingPath(), start, text.length(), b.language()));
        }
        return new ParsedDocument("T", text.toString(), placed, "text/plain");
    }

    private static Block prose(String text, String... path) {
        return new Block(ChunkKind.PROSE, text, List.of(path), 0, 0, "");
    }

    private static String sentences(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "Sentence number " + i + " is here.")
                .collect(Collectors.joining(" "));
    }

    @Test
    void a_short_section_is_one_chunk_that_points_at_its_text() {
        ParsedDocument d = doc(prose("One. Two.", "H"), prose("Three.", "H"));
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 50, 10).chunk(d);
        assertThat(chunks).hasSize(1);
        ChunkDraft c = chunks.getFirst();
        assertThat(c.text()).isEqualTo("One. Two.\n\nThree.");
        assertThat(d.text().substring(c.startOffset(), c.endOffset())).isEqualTo(c.text());
        assertThat(c.headingPath()).containsExactly("H");
        assertThat(c.tokenCount()).isEqualTo(3);
    }

    /** One long row of a table is cut alone, each piece under the header; the other rows stay whole tables. */
    @Test
    void a_table_with_one_long_row_keeps_its_header_in_every_chunk() {
        StringBuilder t = new StringBuilder("id | name | notes");
        for (int i = 0; i < 50; i++) {
            t.append("\n").append(i).append(" | part").append(i).append(" | fine");
            if (i == 20) {
                t.append("\n").append("99 | long | ").append("word ".repeat(150).strip());
            }
        }
        ParsedDocument d = doc(new Block(ChunkKind.TABLE, t.toString(), List.of(), 0, 0, ""));
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 100, 10).chunk(d);
        assertThat(chunks).hasSizeGreaterThan(2).allSatisfy(c -> {
            assertThat(c.kind()).isEqualTo(ChunkKind.TABLE);
            assertThat(c.text()).startsWith("id | name | notes\n");
            assertThat(c.tokenCount()).isLessThanOrEqualTo(100);
        });
        assertThat(chunks).filteredOn(c -> c.text().contains("part49 | fine")).hasSize(1);
        assertThat(String.join("\n", chunks.stream().map(ChunkDraft::text).toList())).contains("99 | long | word");
    }

    /** A list (lines without full stops) is cut at line ends, with overlap: it was cut between words, none shared. */
    @Test
    void a_long_list_is_cut_at_line_ends_with_overlap() {
        String list = IntStream.range(0, 100).mapToObj(i -> "- item " + i + " costs " + i + " euros")
                .collect(Collectors.joining("\n"));
        ParsedDocument d = doc(prose(list));
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 50, 10).chunk(d);
        assertThat(chunks).hasSizeGreaterThan(5);
        for (int i = 0; i < chunks.size(); i++) {
            ChunkDraft c = chunks.get(i);
            assertThat(c.tokenCount()).isLessThanOrEqualTo(50);
            assertThat(c.text()).startsWith("- item").endsWith("euros");
            if (i > 0) {
                String lastLine = chunks.get(i - 1).text().lines().toList().getLast();
                assertThat(c.text()).as("overlap").contains(lastLine);
            }
        }
    }

    @Test
    void long_prose_is_packed_by_sentence_under_the_limit_with_overlap() {
        ParsedDocument d = doc(prose(sentences(0, 40)));
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 25, 10).chunk(d);
        assertThat(chunks).hasSizeGreaterThan(5);
        for (int i = 0; i < chunks.size(); i++) {
            ChunkDraft c = chunks.get(i);
            assertThat(c.tokenCount()).isLessThanOrEqualTo(25);
            assertThat(c.text()).startsWith("Sentence").endsWith("here.");
            assertThat(d.text().substring(c.startOffset(), c.endOffset())).isEqualTo(c.text());
            if (i > 0) {
                ChunkDraft prev = chunks.get(i - 1);
                assertThat(c.startOffset()).as("chunk %d overlaps the previous one", i)
                        .isGreaterThan(prev.startOffset()).isLessThan(prev.endOffset());
            }
        }
        assertThat(chunks.getFirst().startOffset()).isZero();
        assertThat(chunks.getLast().endOffset()).isEqualTo(d.text().length());
    }

    @Test
    void a_sentence_longer_than_the_room_beside_the_overlap_never_leaves_a_chunk_of_overlap_only() {
        String unpunctuated = IntStream.range(0, 400).mapToObj(i -> "word" + i).collect(Collectors.joining(" "));
        for (ParsedDocument d : List.of(doc(prose(IntStream.range(0, 25).mapToObj(i -> "The pump " + i
                + " was checked.").collect(Collectors.joining(" "))), prose(unpunctuated)),
                doc(prose("a b c d e f g h i j k l m n o p q r. Cats purr now. Dogs bark now. " + "x ".repeat(26)
                        + "end.")))) {
            List<ChunkDraft> chunks = new StructuredChunker(WORDS, 32, 10).chunk(d);
            for (int i = 1; i < chunks.size(); i++) {
                assertThat(chunks.get(i).endOffset()).as("chunk %d ends past the one before", i)
                        .isGreaterThan(chunks.get(i - 1).endOffset());
            }
            assertThat(chunks.getLast().endOffset()).isEqualTo(d.text().length());
        }
    }

    @Test
    void many_short_paragraphs_keep_each_chunks_location() {
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            blocks.add(new Block(ChunkKind.PROSE, "Paragraph " + i + " on one line.", List.of(), i * 100,
                    i * 100 + 27, "", i < 1000 ? "page 1" : "page 2"));
        }
        assertThat(StructuredChunker.location(blocks, 0, 500)).isEqualTo("page 1");
        assertThat(StructuredChunker.location(blocks, 99_910, 100_050)).isEqualTo("pages 1\u20132");
        assertThat(StructuredChunker.location(blocks, 150_000, 150_020)).isEqualTo("page 2");
        assertThat(StructuredChunker.location(blocks, 99_930, 99_990)).isEmpty();
    }

    @Test
    void no_overlap_means_chunks_tile_the_text() {
        ParsedDocument d = doc(prose(sentences(0, 30)));
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 25, 0).chunk(d);
        for (int i = 1; i < chunks.size(); i++) {
            assertThat(chunks.get(i).startOffset()).isEqualTo(chunks.get(i - 1).endOffset() + 1);
        }
    }

    @Test
    void a_heading_change_always_starts_a_new_chunk() {
        ParsedDocument d = doc(prose("Alpha text.", "A"), prose("Beta text.", "A", "B"), prose("Gamma.", "C"));
        assertThat(new StructuredChunker(WORDS, 100, 10).chunk(d)).extracting(ChunkDraft::headingPath)
                .containsExactly(List.of("A"), List.of("A", "B"), List.of("C"));
    }

    @Test
    void a_sentence_longer_than_a_chunk_is_cut_between_words() {
        String words = IntStream.range(0, 100).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 30, 0).chunk(doc(prose(words)));
        assertThat(chunks).hasSize(4).allSatisfy(c -> assertThat(c.tokenCount()).isLessThanOrEqualTo(30));
        assertThat(chunks.stream().map(ChunkDraft::text).collect(Collectors.joining(" "))).isEqualTo(words);
    }

    @Test
    void a_large_table_is_split_between_rows_and_every_part_repeats_the_header() {
        String header = "id | name | colour";
        List<String> rows = IntStream.range(0, 30).mapToObj(i -> i + " | item" + i + " | red").toList();
        String table = header + "\n" + String.join("\n", rows);
        ParsedDocument d = doc(new Block(ChunkKind.TABLE, table, List.of("Data"), 0, 0, ""));
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 40, 5).chunk(d);
        assertThat(chunks).hasSizeGreaterThan(2);
        List<String> seen = new ArrayList<>();
        for (ChunkDraft c : chunks) {
            assertThat(c.kind()).isEqualTo(ChunkKind.TABLE);
            assertThat(c.tokenCount()).isLessThanOrEqualTo(40);
            String[] lines = c.text().split("\n");
            assertThat(lines[0]).isEqualTo(header);
            seen.addAll(List.of(lines).subList(1, lines.length));
            assertThat(d.text().substring(c.startOffset(), c.endOffset())).endsWith(lines[lines.length - 1]);
        }
        assertThat(seen).containsExactlyElementsOf(rows);
    }

    /** Like a subword tokenizer on text with no spaces: a word of n characters is n / 4 tokens, rounded up. */
    private static final TokenCounter PIECES = t -> java.util.Arrays.stream(t.strip().split("\\s+"))
            .filter(w -> !w.isEmpty()).mapToInt(w -> (w.length() + 3) / 4).sum();

    /**
     * A word longer than a chunk (a base64 blob), a table of thousands of columns and a line of minified code are cut
     * so that no chunk outgrows the limit (each was one chunk before, of which the model read only the start), and
     * nothing of the text is lost.
     */
    @Test
    void nothing_outgrows_the_limit_however_long_its_words_rows_or_lines() {
        String blob = "QUJD".repeat(5_000);
        String wide = IntStream.range(0, 3_000).mapToObj(i -> "column" + i).collect(Collectors.joining(" | "))
                + "\n" + IntStream.range(0, 3_000).mapToObj(i -> "v" + i).collect(Collectors.joining(" | "));
        String minified = "var a=" + "x".repeat(4_000) + ";" + " if(b){c()}".repeat(500);
        ParsedDocument d = doc(prose("The payload follows. " + blob + " That was all."),
                new Block(ChunkKind.TABLE, wide, List.of(), 0, 0, ""),
                new Block(ChunkKind.CODE, minified, List.of(), 0, 0, "js"));
        List<ChunkDraft> chunks = new StructuredChunker(PIECES, 64, 8).chunk(d);
        assertThat(chunks).allSatisfy(c -> assertThat(c.tokenCount()).as(c.text().substring(0, 40))
                .isLessThanOrEqualTo(64));
        String all = chunks.stream().map(ChunkDraft::text).collect(Collectors.joining());
        assertThat(all.replaceAll("\\s", "")).contains("Thepayloadfollows.").contains("Thatwasall.")
                .contains("column2999").contains("v2999").contains("if(b){c()}");
        assertThat(chunks.stream().filter(c -> c.text().contains("QUJD")).mapToInt(c -> c.text().length()).sum())
                .as("the blob whole, in pieces").isGreaterThanOrEqualTo(blob.length());
        assertThat(chunks.stream().filter(c -> c.text().contains("column")).toList()).as("the wide table, cut as text")
                .isNotEmpty().allSatisfy(c -> assertThat(c.kind()).isEqualTo(ChunkKind.TABLE));
        for (ChunkDraft c : chunks) {
            if (c.kind() != ChunkKind.CODE) {
                assertThat(d.text().substring(c.startOffset(), c.endOffset())).isEqualTo(c.text());
            }
        }
    }

    /**
     * A WordPiece tokenizer counts any run of letters or digits over 100 characters as one unknown token (the
     * default model's): such a run, or a document of them, is still cut to chunks of bounded size.
     */
    @Test
    void a_run_a_wordpiece_tokenizer_counts_as_one_token_is_still_cut() {
        TokenCounter wordPiece = t -> java.util.Arrays.stream(t.strip().split("\\s+")).filter(w -> !w.isEmpty())
                .mapToInt(w -> w.length() > 100 ? 1 : (w.length() + 3) / 4).sum();
        String blob = "QUJD".repeat(50_000);
        List<ChunkDraft> chunks = new StructuredChunker(wordPiece, 64, 8).chunk(doc(prose("Payload: " + blob
                + " and " + "ab12".repeat(40_000))));
        assertThat(chunks).hasSizeGreaterThan(100).allSatisfy(c -> assertThat(c.text().length()).as("a chunk's size")
                .isLessThanOrEqualTo(64 * StructuredChunker.CHARS_PER_TOKEN_AT_MOST + 64));
    }

    /**
     * A run with no spaces longer than a chunk (Thai, emoji sequences) is cut between user-perceived characters: a
     * piece starting with a combining vowel or tone mark, or half an emoji family, is text no reader or model sees.
     */
    @Test
    void a_run_without_spaces_is_never_cut_inside_a_character() {
        TokenCounter perChar = t -> t.strip().codePointCount(0, t.strip().length());
        String thai = "ผู้ดูแลประภาคารจุดไฟทุกค่ำคืนที่ชายฝั่งทะเลอันดามัน".repeat(40);
        String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67\u200D\uD83D\uDC66";
        String emoji = ("a" + family).repeat(60);
        for (int limit : List.of(7, 13, 64)) {
            for (String run : List.of(thai, emoji)) {
                ParsedDocument d = doc(prose(run));
                List<ChunkDraft> chunks = new StructuredChunker(perChar, limit, 0).chunk(d);
                assertThat(chunks).hasSizeGreaterThan(1);
                assertThat(chunks.stream().map(ChunkDraft::text).collect(Collectors.joining())).isEqualTo(run);
                for (ChunkDraft c : chunks) {
                    int first = c.text().codePointAt(0);
                    assertThat(Character.getType(first)).as("limit %d: %s", limit, c.text())
                            .isNotIn((int) Character.NON_SPACING_MARK, (int) Character.COMBINING_SPACING_MARK);
                    assertThat(c.text()).doesNotStartWith("\u200D").doesNotEndWith("\u200D");
                    assertThat(Character.isLowSurrogate(c.text().charAt(0))).isFalse();
                    assertThat(c.tokenCount()).isLessThanOrEqualTo(limit);
                }
            }
        }
        // A run of digits two million long: each cut reads a window round itself, not the run to its end and back.
        String digits = "3141592653".repeat(200_000);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () ->
                assertThat(new StructuredChunker(perChar, 300, 0).chunk(doc(prose(digits)))).hasSizeGreaterThan(6000));
    }

    @Test
    void a_small_table_stays_whole() {
        String table = "a | b\n1 | 2\n3 | 4";
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 100, 5)
                .chunk(doc(new Block(ChunkKind.TABLE, table, List.of(), 0, 0, "")));
        assertThat(chunks).extracting(ChunkDraft::text).containsExactly(table);
    }

    @Test
    void code_is_split_at_blank_lines_never_mid_line_and_fenced_with_its_language() {
        StringBuilder code = new StringBuilder();
        for (int f = 0; f < 6; f++) {
            code.append("def f").append(f).append("(x):\n    y = x + ").append(f).append("\n    return y * 2\n\n");
        }
        String text = code.toString().strip();
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 30, 5)
                .chunk(doc(new Block(ChunkKind.CODE, text, List.of(), 0, 0, "python")));
        assertThat(chunks).hasSizeGreaterThan(1);
        List<String> lines = new ArrayList<>();
        for (ChunkDraft c : chunks) {
            assertThat(c.kind()).isEqualTo(ChunkKind.CODE);
            assertThat(c.text()).startsWith("```python\ndef f").endsWith("\n```");
            List<String> body = List.of(c.text().split("\n"));
            lines.addAll(body.subList(1, body.size() - 1));
        }
        assertThat(lines.stream().filter(l -> !l.isBlank()).toList())
                .containsExactlyElementsOf(text.lines().filter(l -> !l.isBlank()).toList());
    }

    /** A cut inside a class keeps the first line's indentation, and the chunk's offset points at that line. */
    @Test
    void a_code_chunk_keeps_its_first_lines_indentation() {
        StringBuilder code = new StringBuilder("class A:\n");
        for (int f = 0; f < 6; f++) {
            code.append("    def f").append(f).append("(self):\n        return ").append(f).append("\n\n");
        }
        String text = code.toString().stripTrailing();
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 12, 2)
                .chunk(doc(new Block(ChunkKind.CODE, text, List.of(), 0, text.length(), "python")));
        assertThat(chunks).hasSizeGreaterThan(1);
        for (ChunkDraft c : chunks.subList(1, chunks.size())) {
            String body = c.text().substring("```python\n".length(), c.text().length() - "\n```".length());
            assertThat(body).startsWith("    def f");
            assertThat(text.substring(c.startOffset())).as("the offset").startsWith(body);
        }
    }

    /** A fence's info string of kilobytes left each chunk one word of budget: thousands of chunks over the window. */
    @Test
    void a_code_language_of_kilobytes_is_dropped_not_repeated_in_every_chunk() {
        String text = "x = y + 1\n".repeat(2000).strip();
        List<ChunkDraft> chunks = new StructuredChunker(WORDS, 300, 30)
                .chunk(doc(new Block(ChunkKind.CODE, text, List.of(), 0, 0, "a.".repeat(2000))));
        assertThat(chunks).hasSizeLessThan(60).allSatisfy(c -> {
            assertThat(c.tokenCount()).isLessThanOrEqualTo(300);
            assertThat(c.text()).startsWith("```\nx = y + 1");
        });
    }

    @Test
    void chunking_is_deterministic_and_an_empty_document_has_no_chunks() {
        ParsedDocument d = doc(prose(sentences(0, 50), "X"));
        StructuredChunker chunker = new StructuredChunker(WORDS, 20, 5);
        assertThat(chunker.chunk(d)).isEqualTo(chunker.chunk(d));
        assertThat(chunker.chunk(new ParsedDocument("", "", List.of(), "text/plain"))).isEmpty();
    }

    @Test
    void the_word_estimate_counts_words_and_punctuation() {
        assertThat(new WordTokenCounter().count("")).isZero();
        assertThat(new WordTokenCounter().count("Hello, world!")).isEqualTo(5);
        // Long runs and scripts without spaces count by their characters; a combining mark is part of its word.
        WordTokenCounter words = new WordTokenCounter();
        assertThat(words.count("0123456789abcdef".repeat(65_536))).isGreaterThanOrEqualTo(200_000);
        assertThat(words.count("\u6c34".repeat(100))).isGreaterThanOrEqualTo(100);
        assertThat(words.count("cafe\u0301 ok")).isEqualTo(words.count("caf\u00e9 ok"));
        List<ChunkDraft> hex = new StructuredChunker(words, 300, 40).chunk(doc(prose("0123456789abcdef".repeat(
                4096))));
        assertThat(hex).hasSizeGreaterThan(10).allSatisfy(c -> assertThat(c.text().length()).isLessThanOrEqualTo(
                4 * 300));
    }
}
