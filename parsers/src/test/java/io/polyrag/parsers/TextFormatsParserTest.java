package io.polyrag.parsers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import io.polyrag.core.config.Config;
import io.polyrag.core.model.Block;
import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import io.polyrag.core.model.SourceItem;
import io.polyrag.core.port.Parser;
import io.polyrag.core.spi.ProviderContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextFormatsParserTest {
    private final TextFormatsParser parser = new TextFormatsParser();

    private ParsedDocument parse(String name, String content) {
        return parser.parse(new SourceItem("file:///" + name, name, content.getBytes(StandardCharsets.UTF_8), null));
    }

    private static void offsetsPointAtBlockText(ParsedDocument d) {
        for (Block b : d.blocks()) {
            assertThat(d.text().substring(b.start(), b.end())).isEqualTo(b.text());
        }
    }

    @Test
    void the_text_parser_named_by_the_setting_refuses_more_text_than_the_text_limit() {
        // POLYRAG_INGEST_PARSER=text read any size of text the file limit let through: the text limit is its too.
        Parser limited = new TextFormatsParserProvider().open(new ProviderContext(
                Config.load(Map.of(), Map.of("ingest.max.text.mb", "1")), Path.of(".")));
        byte[] big = "word ".repeat(220_000).getBytes(StandardCharsets.UTF_8);
        for (String name : List.of("big.txt", "big.md", "big.html")) {
            assertThatThrownBy(() -> limited.parse(new SourceItem("file:///" + name, name, big, null)))
                    .isInstanceOf(InvalidInputException.class).hasMessageContaining("1048576 characters")
                    .hasMessageContaining("POLYRAG_INGEST_MAX_TEXT_MB");
        }
        byte[] under = "word ".repeat(200_000).getBytes(StandardCharsets.UTF_8);
        assertThat(limited.parse(new SourceItem("file:///ok.txt", "ok.txt", under, null)).text()).hasSize(999_999);
    }

    @Test
    void a_relative_base_href_is_read_against_the_pages_own_url() {
        // <base href="/"> (Jekyll, Angular) was ignored: "docs/intro" on /docs/guide/ was fetched as
        // /docs/guide/docs/intro, a 404, and the page was never indexed.
        byte[] html = "<html><head><base href=\"/\"></head><body><a href=\"docs/intro\">i</a> <a href=\"/abs\">a</a>"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(parser.links(new SourceItem("https://site.test/docs/guide/", "page.html", html, "text/html")))
                .containsExactly("https://site.test/docs/intro", "https://site.test/abs");
        byte[] absolute = "<html><head><base href=\"https://cdn.test/x/\"></head><body><a href=\"y\">y</a>"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(parser.links(new SourceItem("https://site.test/p", "page.html", absolute, "text/html")))
                .containsExactly("https://cdn.test/x/y");
    }

    @Test
    void markdown_headings_build_the_heading_path_of_each_block() {
        ParsedDocument d = parse("guide.md", """
                # Guide

                Intro paragraph.

                ## Install
                Run the installer
                and wait.

                ### On Linux
                Use the package.

                ## Usage
                Start it.
                """);
        assertThat(d.title()).isEqualTo("Guide");
        assertThat(d.mediaType()).isEqualTo("text/markdown");
        assertThat(d.blocks()).extracting(Block::headingPath).containsExactly(List.of("Guide"),
                List.of("Guide", "Install"), List.of("Guide", "Install", "On Linux"), List.of("Guide", "Usage"));
        assertThat(d.blocks().get(1).text()).isEqualTo("Run the installer\nand wait.");
        offsetsPointAtBlockText(d);
    }

    @Test
    void markdown_code_fences_and_tables_become_their_own_blocks() {
        ParsedDocument d = parse("x.md", """
                Setext Title
                ============

                ```java
                int x = 1;

                int y = 2;
                ```

                | Name | Value |
                |------|------:|
                | alpha | 1 |
                | beta \\| gamma | 2 |

                See [the docs](http://example.invalid/docs) and ![a chart](c.png).
                """);
        assertThat(d.title()).isEqualTo("Setext Title");
        assertThat(d.blocks()).extracting(Block::kind).containsExactly(ChunkKind.CODE, ChunkKind.TABLE,
                ChunkKind.PROSE);
        assertThat(d.blocks().get(0).language()).isEqualTo("java");
        assertThat(d.blocks().get(0).text()).isEqualTo("int x = 1;\n\nint y = 2;");
        assertThat(d.blocks().get(1).text()).isEqualTo("Name | Value\nalpha | 1\nbeta | gamma | 2");
        assertThat(d.blocks().get(2).text()).isEqualTo("See the docs and a chart.");
        offsetsPointAtBlockText(d);
    }

    @Test
    void markdown_headings_read_by_hand_keep_commonmark_rules() {
        assertThat(MarkdownParser.atx("# foo #")).isEqualTo(new MarkdownParser.Heading(1, "foo"));
        assertThat(MarkdownParser.atx("   ## a b ##  ")).isEqualTo(new MarkdownParser.Heading(2, "a b"));
        assertThat(MarkdownParser.atx("### ###")).isEqualTo(new MarkdownParser.Heading(3, ""));
        assertThat(MarkdownParser.atx("###")).isEqualTo(new MarkdownParser.Heading(3, ""));
        assertThat(MarkdownParser.atx("#\tTabbed")).isEqualTo(new MarkdownParser.Heading(1, "Tabbed"));
        assertThat(MarkdownParser.atx("# C#")).isEqualTo(new MarkdownParser.Heading(1, "C#"));
        assertThat(MarkdownParser.atx("#hashtag")).isNull();
        assertThat(MarkdownParser.atx("####### seven")).isNull();
        assertThat(MarkdownParser.atx("    # indented code")).isNull();
        assertThat(MarkdownParser.isTableRule("|---|:--:| --: |")).isTrue();
        assertThat(MarkdownParser.isTableRule("--- | ---")).isTrue();
        assertThat(MarkdownParser.isTableRule("|---||---|")).isFalse();
        assertThat(MarkdownParser.isTableRule("| - |")).isFalse();
    }

    /**
     * Lines built to make a backtracking pattern explode: each parses in about a second at most (before, the heading
     * took hours, the brackets minutes, and the table rule overflowed the stack).
     */
    @Test
    void markdown_hostile_lines_parse_in_linear_time() {
        String[] hostile = {"#" + " ".repeat(200_000) + "\u2028x", "[".repeat(400_000), "![".repeat(200_000),
            "[a](".repeat(100_000), "```" + " ".repeat(200_000) + "\u2028", "| a | b |\n|--" + " |--".repeat(100_000),
            "Title\n" + "=".repeat(300_000) + "x"};
        for (String text : hostile) {
            ParsedDocument d = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    java.time.Duration.ofSeconds(20), () -> parse("hostile.md", text + "\n\nEnd."));
            assertThat(d.text()).endsWith("End.");
        }
        ParsedDocument links = parse("links.md", "See [the guide](https://x.test/g) and ![a chart](c.png), "
                + "[ref][1] and [a [nested] one](u).");
        assertThat(links.text()).contains("See the guide and a chart, [ref][1] and [a [nested] one](u).");
    }

    @Test
    void markdown_front_matter_is_skipped_but_its_title_kept() {
        ParsedDocument d = parse("fm.md", "---\ntitle: \"Release notes\"\ntags: [a]\n---\nBody text.\n");
        assertThat(d.title()).isEqualTo("Release notes");
        assertThat(d.blocks()).extracting(Block::text).containsExactly("Body text.");
    }

    @Test
    void html_boilerplate_is_dropped_and_structure_kept() {
        ParsedDocument d = parse("page.html", """
                <!doctype html><html><head><title>Page Title</title><style>p{}</style>
                <script>var tracking = 1;</script></head><body>
                <nav><a href="/">Home</a> | <a href="/x">Menu item</a></nav>
                <main><h1>Main</h1><p>First <b>bold</b> paragraph.</p>
                <div>Loose text in a div<p>nested para</p></div>
                <h2>Data</h2><table><caption>Prices</caption><tr><th>Item</th><th>Price</th></tr>
                <tr><td>Apple</td><td>3</td></tr></table>
                <pre><code class="language-python">print("hi")
                </code></pre><ul><li>one</li><li>two</li></ul></main>
                <footer>Copyright notice</footer></body></html>
                """);
        assertThat(d.title()).isEqualTo("Page Title");
        assertThat(d.text()).doesNotContain("tracking", "Menu item", "Copyright");
        assertThat(d.blocks()).extracting(Block::text).contains("First bold paragraph.", "Loose text in a div",
                "nested para", "Prices", "Item | Price\nApple | 3", "print(\"hi\")", "one", "two");
        Block table = d.blocks().stream().filter(b -> b.kind() == ChunkKind.TABLE).findFirst().orElseThrow();
        assertThat(table.headingPath()).containsExactly("Main", "Data");
        Block code = d.blocks().stream().filter(b -> b.kind() == ChunkKind.CODE).findFirst().orElseThrow();
        assertThat(code.language()).isEqualTo("python");
        offsetsPointAtBlockText(d);
    }

    @Test
    void plain_text_paragraphs_split_on_blank_lines_and_the_title_is_the_file_name() {
        ParsedDocument d = parse("notes.txt", "line one\nline two\n\n\npara two\r\n");
        assertThat(d.title()).isEqualTo("notes");
        assertThat(d.blocks()).extracting(Block::text).containsExactly("line one\nline two", "para two");
    }

    /** UTF-8 with one broken byte past a long ASCII head is UTF-8 still: it was decoded as ISO-8859-1 throughout. */
    @Test
    void utf8_with_a_broken_byte_is_read_as_utf8() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write("log line of plain ascii text\n".repeat(500).getBytes(StandardCharsets.US_ASCII));
        out.write("caf\u00e9 \u201cquoted\u201d cr\u00e8me br\u00fbl\u00e9e na\u00efve \u00e0 la carte\n"
                .getBytes(StandardCharsets.UTF_8));
        out.write(0xFF);
        out.write("\nthe end\n".getBytes(StandardCharsets.US_ASCII));
        String text = parser.parse(new SourceItem("u", "notes.txt", out.toByteArray(), null)).text();
        assertThat(text).contains("caf\u00e9 \u201cquoted\u201d cr\u00e8me").contains("the end");
        byte[] latin = ("ascii head\n".repeat(2000) + "caf\u00e9 cr\u00e8me \u00e0 la carte").getBytes(
                java.nio.charset.Charset.forName("windows-1252"));
        assertThat(parser.parse(new SourceItem("u", "l.txt", latin, null)).text()).as("a legacy charset is not UTF-8")
                .contains("caf\u00e9 cr\u00e8me");
    }

    @Test
    void legacy_encodings_and_byte_order_marks_are_decoded() {
        byte[] latin = "caf\u00e9 cr\u00e8me".getBytes(java.nio.charset.Charset.forName("windows-1252"));
        assertThat(parser.parse(new SourceItem("u", "a.txt", latin, null)).text()).isEqualTo("caf\u00e9 cr\u00e8me");
        byte[] utf16 = "\uFEFFhello world".getBytes(StandardCharsets.UTF_16LE);
        assertThat(parser.parse(new SourceItem("u", "b.txt", utf16, null)).text()).isEqualTo("hello world");
        byte[] utf32 = "\uFEFFhello world".getBytes(java.nio.charset.Charset.forName("UTF-32LE"));
        assertThat(parser.parse(new SourceItem("u", "c.txt", utf32, null)).text()).isEqualTo("hello world");
        byte[] utf32be = "\uFEFFhello world".getBytes(java.nio.charset.Charset.forName("UTF-32BE"));
        assertThat(parser.parse(new SourceItem("u", "d.txt", utf32be, null)).text()).isEqualTo("hello world");
    }

    /** A short page in a legacy charset it declares in its head is read in that charset, not guessed. */
    @Test
    void an_html_page_is_read_in_the_charset_its_head_declares() {
        String html = "<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1250\">"
                + "<title>Řeka</title></head><body><p>Přístav u řeky, kde kotví lodě.</p></body></html>";
        byte[] bytes = html.getBytes(java.nio.charset.Charset.forName("windows-1250"));
        assertThat(parser.parse(new SourceItem("u", "page.html", bytes, null)).text()).contains("Přístav u řeky");
    }

    /**
     * A page declaring ISO-8859-1 is read as browsers read it, windows-1252: its smart quotes, dashes and euro sign
     * were invisible control characters. A declared UTF-16 on a page readable as ASCII is ignored, as browsers do.
     */
    @Test
    void declared_latin1_is_read_as_windows_1252_and_a_declared_utf16_ignored() {
        String html = "<html><head><meta charset=\"iso-8859-1\"><title>Prices</title></head><body><p>It\u2019s "
                + "\u20ac 5 \u2014 \u201cok\u201d, caf\u00e9.</p></body></html>";
        byte[] bytes = html.getBytes(java.nio.charset.Charset.forName("windows-1252"));
        String text = parser.parse(new SourceItem("u", "page.html", bytes, null)).text();
        assertThat(text).contains("It\u2019s \u20ac 5 \u2014 \u201cok\u201d, caf\u00e9.");
        assertThat(text.chars()).noneMatch(c -> c >= 0x80 && c <= 0x9F);
        byte[] ascii = ("<html><head><meta charset=\"utf-16\"><title>T</title></head><body><p>Plain words here, "
                + "caf\u00e9.</p></body></html>").getBytes(java.nio.charset.Charset.forName("windows-1252"));
        assertThat(parser.parse(new SourceItem("u", "a.html", ascii, null)).text()).contains("Plain words here");
    }

    /**
     * A page whose body is one form (ASP.NET, SharePoint) keeps its text, and a post's header inside its article its
     * h1; the page's own header and footer, and a form's controls, are still dropped.
     */
    @Test
    void content_inside_a_form_or_an_articles_header_is_kept() {
        ParsedDocument form = parse("leave.html", "<html><body><form id=\"aspnetForm\"><header>Site menu</header>"
                + "<h1>Leave</h1><p>Staff get 25 days.</p><input value=\"search\"><button>Go</button></form>"
                + "</body></html>");
        assertThat(form.text()).contains("Staff get 25 days").doesNotContain("Site menu").doesNotContain("Go");
        ParsedDocument post = parse("post.html", "<html><body><header>Blog</header><article><header><h1>Post</h1>"
                + "</header><p>Body of the post.</p><aside>A note on it.</aside></article><footer>(c)</footer>"
                + "</body></html>");
        assertThat(post.blocks()).anySatisfy(b -> assertThat(b.headingPath()).containsExactly("Post"));
        assertThat(post.text()).contains("A note on it").doesNotContain("Blog").doesNotContain("(c)");
        // An accordion's question is its button (in the heading), and a docs site's tab panels but one are hidden.
        ParsedDocument faq = parse("faq.html", "<html><body><h2 class=\"accordion-header\"><button "
                + "aria-expanded=\"false\" aria-controls=\"a1\">How long is the warranty?</button></h2><div id=\"a1\">"
                + "<p>Two years from delivery.</p></div><div role=\"tabpanel\"><p>On Linux run install.sh.</p></div>"
                + "<div role=\"tabpanel\" hidden><p>On Windows run install.ps1.</p></div></body></html>");
        assertThat(faq.text()).contains("How long is the warranty?").contains("Two years from delivery")
                .contains("install.sh").contains("install.ps1");
        assertThat(faq.blocks()).anySatisfy(b -> assertThat(b.headingPath()).contains("How long is the warranty?"));
    }

    /**
     * A section's own header is content (its heading was dropped as page chrome); a custom element, or a link round a
     * card, holding headings, code and paragraphs keeps them as blocks, not one paragraph of their text.
     */
    @Test
    void a_sections_header_and_blocks_inside_custom_elements_keep_their_structure() {
        ParsedDocument sections = parse("guide.html", "<html><body><header>Site</header><section><header><h2>Install"
                + "</h2></header><p>Run the installer.</p></section></body></html>");
        assertThat(sections.blocks()).anySatisfy(b -> {
            assertThat(b.text()).isEqualTo("Run the installer.");
            assertThat(b.headingPath()).containsExactly("Install");
        });
        assertThat(sections.text()).doesNotContain("Site");
        // A theme wrapping the whole page in a section (Read the Docs) keeps its footer out.
        ParsedDocument rtd = parse("rtd.html", "<html><body><section class=\"wy-nav-content-wrap\"><div role=\"main\">"
                + "<section><h1>Tides</h1><p>High water at noon.</p><aside class=\"footnote\">Footnote on spring "
                + "tides.</aside></section></div><footer>Built with Sphinx using a theme provided by Read the Docs."
                + "</footer></section></body></html>");
        assertThat(rtd.text()).contains("High water at noon").contains("Footnote on spring tides")
                .doesNotContain("Built with");
        ParsedDocument app = parse("app.html", "<html><body><app-root><h1>Setup</h1><p>Step one.</p><pre>  a\n    b"
                + "</pre><a href=\"/x\"><div><h3>Card</h3><p>Card text.</p></div></a></app-root></body></html>");
        assertThat(app.blocks()).anySatisfy(b -> {
            assertThat(b.text()).isEqualTo("Step one.");
            assertThat(b.headingPath()).containsExactly("Setup");
        });
        assertThat(app.blocks()).anySatisfy(b -> {
            assertThat(b.kind()).isEqualTo(ChunkKind.CODE);
            assertThat(b.text()).contains("    b");
        });
        assertThat(app.blocks()).anySatisfy(b -> {
            assertThat(b.text()).isEqualTo("Card text.");
            assertThat(b.headingPath()).containsExactly("Setup", "Card");
        });
        offsetsPointAtBlockText(app);
    }

    /** Triple backticks with text after them on one line are inline code, not a fence taking the rest of the file. */
    @Test
    void a_line_of_inline_triple_backticks_opens_no_code_block() {
        ParsedDocument d = parse("chat.md", "```pip install polyrag```\n\n# Usage\n\nCall it.\n");
        assertThat(d.blocks()).anySatisfy(b -> {
            assertThat(b.text()).isEqualTo("Call it.");
            assertThat(b.headingPath()).containsExactly("Usage");
            assertThat(b.kind()).isEqualTo(ChunkKind.PROSE);
        });
        assertThat(parse("real.md", "```python\nprint(1)\n```\n").blocks()).singleElement()
                .satisfies(b -> assertThat(b.kind()).isEqualTo(ChunkKind.CODE));
    }

    /** A cell spanning rows is carried down and one spanning columns repeated: every row stays under its headers. */
    @Test
    void table_cells_spanning_rows_and_columns_keep_rows_aligned() {
        ParsedDocument doc = parse("sales.html", "<html><body><table><tr><th>Region</th><th>Quarter</th><th>Sales</th>"
                + "</tr><tr><td rowspan=\"2\">North</td><td>Q1</td><td>10</td></tr><tr><td>Q2</td><td>20</td></tr>"
                + "<tr><td colspan=\"2\">Total</td><td>30</td></tr><tr><td colspan=\"1000000\">x</td></tr></table>"
                + "</body></html>");
        String table = doc.blocks().stream().filter(b -> b.kind() == io.polyrag.core.model.ChunkKind.TABLE)
                .findFirst().orElseThrow().text();
        assertThat(table.lines().toList()).startsWith("Region | Quarter | Sales", "North | Q1 | 10",
                "North | Q2 | 20", "Total | Total | 30");
        assertThat(table.lines().toList().getLast().split(" \\| ")).as("a span is bounded").hasSize(20);
    }

    /** A long cell spanning 20 columns and 20 rows is not copied 400 times: copies are bounded by the table's text. */
    @Test
    void a_huge_spanning_cell_is_not_copied_past_the_tables_own_text() {
        String cell = "tide ".repeat(100_000);
        ParsedDocument doc = parse("span.html", "<html><body><table><tr><td colspan=20 rowspan=20>" + cell
                + "</td></tr>" + "<tr><td>a</td></tr>".repeat(19) + "</table></body></html>");
        long text = doc.blocks().stream().mapToLong(b -> b.text().length()).sum();
        assertThat(text).as("at most three times the table's own text").isLessThan(3L * cell.length() + 20_000);
        assertThat(doc.text()).contains("tide tide");
    }

    /** A heading or title of a megabyte is cut: each is repeated in every chunk below it. */
    @Test
    void a_huge_heading_and_title_are_cut() {
        String heading = "word ".repeat(200_000);
        ParsedDocument doc = parse("big.md", "# " + heading + "\n\n" + "A short sentence. ".repeat(50));
        assertThat(doc.title().length()).isLessThanOrEqualTo(io.polyrag.core.model.ParsedDocument.MAX_TITLE);
        assertThat(doc.blocks()).allSatisfy(b -> assertThat(b.headingPath()).allSatisfy(h -> assertThat(h.length())
                .isLessThanOrEqualTo(io.polyrag.core.model.Block.MAX_HEADING)));
        ParsedDocument page = parse("t.html", "<html><head><title>" + heading + "</title></head><body><p>Body text "
                + "of the page.</p></body></html>");
        assertThat(page.title().length()).isLessThanOrEqualTo(io.polyrag.core.model.ParsedDocument.MAX_TITLE);
    }

    /** A NUL past the first 8 KiB, or in UTF-16 text: a space, never a character no store accepts. */
    @Test
    void a_nul_the_binary_check_does_not_see_becomes_a_space() {
        String late = "word ".repeat(2_000) + "end\u0000of text";
        assertThat(parser.parse(new SourceItem("u", "late.txt", late.getBytes(StandardCharsets.UTF_8), null)).text())
                .doesNotContain("\u0000").contains("end of text");
        byte[] utf16 = "\uFEFFnul\u0000inside".getBytes(StandardCharsets.UTF_16LE);
        assertThat(parser.parse(new SourceItem("u", "w.txt", utf16, null)).text()).isEqualTo("nul inside");
    }

    @Test
    void binary_garbage_named_as_text_is_refused_with_the_reason() {
        byte[] garbage = new byte[4096];
        new Random(42).nextBytes(garbage);
        assertThatThrownBy(() -> parser.parse(new SourceItem("u", "data.txt", garbage, null)))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("data.txt: looks like binary data");
    }

    @Test
    void empty_and_markup_only_files_have_no_text_to_index() {
        assertThatThrownBy(() -> parse("empty.md", "")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no text to index");
        assertThatThrownBy(() -> parse("blank.html", "<html><script>x()</script></html>"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("no text to index");
    }

    /** A note of one heading, or a page of one {@code <h1>}: the heading is the text, not "no text to index". */
    @Test
    void a_file_of_headings_alone_is_indexed_as_their_text() {
        ParsedDocument md = parse("kettle.md", "# Buy a new kettle\n\n## Before Friday\n");
        assertThat(md.blocks()).singleElement().satisfies(b -> assertThat(b.text())
                .isEqualTo("Buy a new kettle\n\nBefore Friday"));
        assertThat(md.title()).isEqualTo("Buy a new kettle");
        assertThat(parse("page.html", "<html><body><h1>Tide tables</h1></body></html>").blocks())
                .singleElement().satisfies(b -> assertThat(b.text()).isEqualTo("Tide tables"));
        // A site's banner over its navigation is boilerplate still: a hub page of links has nothing to index.
        assertThatThrownBy(() -> parse("hub.html", "<html><body><header><h1>Harbour docs</h1></header><nav>"
                + "<a href=\"a.html\">a</a></nav></body></html>")).hasMessageContaining("no text to index");
    }

    @Test
    void unsupported_types_are_named_in_the_error() {
        assertThatThrownBy(() -> parse("slides.pptx", "PK stuff")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("slides.pptx: unsupported type (.pptx)");
        assertThat(parser.acceptsName("README.MD")).isTrue();
        assertThat(parser.acceptsName("photo.jpg")).isFalse();
    }

    @Test
    void html_is_recognised_by_content_when_the_name_says_nothing() {
        assertThat(parse("download", "<!DOCTYPE html><html><body><p>Hi there</p></body></html>").mediaType())
                .isEqualTo("text/html");
    }

    @Test
    void deeply_nested_or_huge_html_parses_in_bounded_time() {
        String nested = "<div>".repeat(50_000) + "deep text" + "</div>".repeat(50_000);
        assertThat(parse("deep.html", nested).text()).contains("deep text");
    }

    @Test
    void a_legacy_encoding_is_detected_not_assumed() {
        String russian = "Морской порт рабо"
                + "тает круглый год, а "
                + "ледоколы выходят "
                + "зимой. ";
        String text = russian.repeat(6).strip();
        byte[] koi8 = text.getBytes(java.nio.charset.Charset.forName("KOI8-R"));
        assertThat(new TextFormatsParser().parse(new SourceItem("u", "port.txt", koi8, null)).text())
                .isEqualTo(text);
    }
}
