package io.polyrag.parsers;

import io.polyrag.core.model.ChunkKind;
import io.polyrag.core.model.ParsedDocument;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.parser.Parser;

/**
 * HTML to blocks with jsoup: boilerplate (scripts, styles, navigation, form controls; the page's headers, footers
 * and asides, not those of an {@code article} or {@code main}) is dropped;
 * headings build the heading path; {@code pre} becomes code with the language from a {@code language-*} class; tables
 * become table blocks, header row first; the remaining text becomes paragraphs in reading order.
 */
final class HtmlParser {
    // Not a form itself (ASP.NET and SharePoint pages wrap their whole body in one, and were "no text to index"),
    // only its controls.
    // Hidden, but not a tab panel: documentation sites (Docusaurus, sphinx-tabs) render every tab panel but the
    // selected one hidden (the Windows steps beside the Linux ones), and those are the page's content.
    private static final String BOILERPLATE = "script, style, noscript, template, nav, iframe, svg, canvas, "
            + "select, input, textarea, [role=navigation], [role=banner], [role=contentinfo], [aria-hidden=true], "
            + "[hidden]:not([role=tabpanel])";
    /**
     * The page's frame, dropped unless inside the content (a post's header holds its h1, a doc's aside a note, and a
     * section's header its heading).
     */
    private static final String FRAME = "header, footer, aside";
    private static final Set<String> LEAF_BLOCKS = Set.of("p", "li", "dt", "dd", "blockquote", "figcaption", "caption",
            "address", "summary", "td", "th");
    private static final Set<String> BLOCKS = Set.of("address", "article", "aside", "blockquote", "details", "dialog",
            "dd", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5",
            "h6", "header", "hgroup", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "ul", "summary",
            "body", "center");

    private HtmlParser() {
    }

    static ParsedDocument parse(String html, String fallbackTitle) {
        Document dom = Jsoup.parse(html, "", Parser.htmlParser().setTrackErrors(0));
        String title = dom.title();
        List<String> links = links(dom);
        dom.select(BOILERPLATE).remove();
        // A button is a control, but an accordion's is its question (a FAQ's h2 holds it): kept in a heading or where
        // it opens a panel.
        dom.select("button").forEach(b -> {
            if (b.closest("h1, h2, h3, h4, h5, h6") == null && !b.hasAttr("aria-controls")
                    && !b.hasAttr("aria-expanded")) {
                b.remove();
            }
        });
        for (Element frame : dom.select(FRAME)) {
            // Inside a section a header (its heading) and an aside (Sphinx's footnotes and sidebars) are content,
            // a footer is not: themes wrap the whole page in one (Read the Docs: "Built with Sphinx" on every page).
            boolean inSection = !frame.normalName().equals("footer") && frame.parents().stream()
                    .anyMatch(p -> "section".equals(p.normalName()));
            if (!inSection && frame.parents().stream().noneMatch(p -> "article".equals(p.normalName())
                    || "main".equals(p.normalName()) || "main".equals(p.attr("role")))) {
                frame.remove();
            }
        }
        DocumentBuilder doc = new DocumentBuilder();
        visit(dom.body(), doc, 0, holdingBlocks(dom));
        String t = !title.isBlank() ? title : doc.firstHeading() != null ? doc.firstHeading() : fallbackTitle;
        ParsedDocument parsed = doc.build(t, "text/html");
        return new ParsedDocument(parsed.title(), parsed.text(), parsed.blocks(), parsed.mediaType(), links);
    }

    /** Most links a page reports (a hostile page may hold millions). */
    private static final int MAX_LINKS = 5000;

    /** The links of an HTML text, as {@link #parse} reports them. */
    static List<String> links(String html) {
        return links(html, "");
    }

    /**
     * The links of the HTML page at {@code pageUrl}: a relative {@code <base href="/">} (Jekyll, Angular) is read
     * against it, as browsers do; ignored, "docs/intro" on /docs/guide/ was fetched as /docs/guide/docs/intro.
     */
    static List<String> links(String html, String pageUrl) {
        return links(Jsoup.parse(html, "", Parser.htmlParser().setTrackErrors(0)), pageUrl);
    }

    private static List<String> links(Document dom) {
        return links(dom, "");
    }

    /**
     * The page's links as written ({@code <a href>}, navigation included, so a crawler can follow them), resolved
     * against its {@code <base href>} when it has one (a relative one against the page's own URL); none when its
     * robots meta tag says nofollow.
     */
    private static List<String> links(Document dom, String pageUrl) {
        for (Element meta : dom.select("meta[name=robots]")) {
            if (meta.attr("content").toLowerCase(Locale.ROOT).matches(".*\\b(nofollow|none)\\b.*")) {
                return List.of();
            }
        }
        String base = dom.select("base[href]").attr("href");
        URI baseUri = null;
        try {
            baseUri = base.isBlank() ? null : new URI(base.strip().replace(" ", "%20"));
            URI page = baseUri == null || baseUri.isAbsolute() || pageUrl.isBlank() ? null : new URI(pageUrl);
            baseUri = page != null && page.isAbsolute() ? page.resolve(baseUri) : baseUri;
            baseUri = baseUri != null && baseUri.isAbsolute() ? baseUri : null;
        } catch (URISyntaxException e) {
            baseUri = null;
        }
        List<String> out = new ArrayList<>();
        for (Element a : dom.select("a[href]")) {
            String href = a.attr("href").strip();
            if (href.isEmpty() || href.startsWith("#") || a.attr("rel").toLowerCase(Locale.ROOT)
                    .contains("nofollow")) {
                continue;
            }
            if (baseUri != null) {
                try {
                    href = baseUri.resolve(href.replace(" ", "%20")).toString();
                } catch (IllegalArgumentException e) {
                    continue;
                }
            }
            out.add(href);
            if (out.size() >= MAX_LINKS) {
                break;
            }
        }
        return out;
    }

    /** Past this nesting depth an element's text is taken whole: hostile nesting must not exhaust the stack. */
    private static final int MAX_DEPTH = 128;

    /**
     * Every element holding a block (a heading, a table, a code block, a paragraph) anywhere below it, found in one
     * pass: such an element of another kind (a custom element as {@code <app-root>}, a link around a card, an old
     * page's {@code <font>}) is visited as a container, not flattened to one paragraph of its text.
     */
    private static Set<Element> holdingBlocks(Document dom) {
        Set<Element> holding = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Element e : dom.getAllElements()) {
            if (BLOCKS.contains(e.normalName()) || e.normalName().equals("table")) {
                // Climbs until an ancestor already marked: each element is marked once.
                Element p = e.parent();
                while (p != null && holding.add(p)) {
                    p = p.parent();
                }
            }
        }
        return holding;
    }

    private static void visit(Element el, DocumentBuilder doc, int depth, Set<Element> holding) {
        String tag = el.normalName();
        if (depth > MAX_DEPTH) {
            doc.prose(el.text());
        } else if (tag.length() == 2 && tag.charAt(0) == 'h' && Character.isDigit(tag.charAt(1))) {
            doc.heading(tag.charAt(1) - '0', el.text());
        } else if (tag.equals("pre")) {
            doc.block(ChunkKind.CODE, el.wholeText(), language(el));
        } else if (tag.equals("table")) {
            table(el, doc);
        } else if (LEAF_BLOCKS.contains(tag) && !hasBlockChild(el)) {
            doc.prose(el.text());
        } else {
            container(el, doc, depth, holding);
        }
    }

    /** Inline content between block children becomes paragraphs; block children are visited in order. */
    private static void container(Element el, DocumentBuilder doc, int depth, Set<Element> holding) {
        StringBuilder inline = new StringBuilder();
        for (Node child : el.childNodes()) {
            if (child instanceof TextNode tn) {
                inline.append(tn.text());
            } else if (child instanceof Element e) {
                if (BLOCKS.contains(e.normalName()) || e.normalName().equals("table") || holding.contains(e)) {
                    doc.prose(inline.toString());
                    inline.setLength(0);
                    visit(e, doc, depth + 1, holding);
                } else if (e.normalName().equals("br")) {
                    inline.append('\n');
                } else {
                    inline.append(e.text()).append(' ');
                }
            }
        }
        doc.prose(inline.toString().replaceAll("[ \\t\\x0B\\f]+", " "));
    }

    private static boolean hasBlockChild(Element el) {
        for (Element c : el.children()) {
            if (BLOCKS.contains(c.normalName()) || c.normalName().equals("table") || c.normalName().equals("pre")) {
                return true;
            }
        }
        return false;
    }

    /** The most columns or rows one cell may span here: a hostile colspan of a million is 20. */
    private static final int MAX_SPAN = 20;

    /**
     * A table's rows, each cell where its columns are: a cell spanning columns repeats its text in each, one spanning
     * rows carries it down (a "Region" cell of three rows made the next two rows shift left under the wrong headers).
     */
    private static void table(Element table, DocumentBuilder doc) {
        // Copies are bounded by the table's own text: a cell of megabytes spanning 20 columns and 20 rows was 400
        // copies, gigabytes from a page of a few megabytes. Past the bound a spanned cell's copies stay empty.
        long[] copies = {2L * table.text().length() + 10_000};
        List<String> rows = new ArrayList<>();
        Map<Integer, String> carried = new HashMap<>();
        Map<Integer, Integer> rowsLeft = new HashMap<>();
        for (Element tr : table.select("tr")) {
            if (tr.closest("table") != table) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            int col = 0;
            for (Element cell : tr.children()) {
                if (!cell.normalName().equals("td") && !cell.normalName().equals("th")) {
                    continue;
                }
                col = fillCarried(cells, col, carried, rowsLeft);
                String text = cell.text().replace("|", "/");
                int across = span(cell.attr("colspan"));
                int down = span(cell.attr("rowspan"));
                for (int k = 0; k < across; k++, col++) {
                    cells.add(k == 0 || copy(copies, text.length()) ? text : "");
                    if (down > 1) {
                        carried.put(col, copy(copies, (long) text.length() * (down - 1)) ? text : "");
                        rowsLeft.put(col, down - 1);
                    }
                }
            }
            int last = rowsLeft.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1);
            while (col <= last) {
                int before = col;
                col = fillCarried(cells, col, carried, rowsLeft);
                if (col == before) {
                    cells.add("");
                    col++;
                }
            }
            if (!cells.isEmpty() && cells.stream().anyMatch(c -> !c.isBlank())) {
                rows.add(String.join(" | ", cells));
            }
        }
        Element caption = table.selectFirst("caption");
        if (caption != null) {
            doc.prose(caption.text());
        }
        doc.block(ChunkKind.TABLE, String.join("\n", rows), "");
    }

    /** Whether {@code chars} more copied characters fit what is left of the table's bound (taken from it if so). */
    private static boolean copy(long[] left, long chars) {
        if (chars > left[0]) {
            return false;
        }
        left[0] -= chars;
        return true;
    }

    /** Cells carried down into this row from {@code col} on, while a cell above spans into it; the next column. */
    private static int fillCarried(List<String> cells, int col, Map<Integer, String> carried,
            Map<Integer, Integer> rowsLeft) {
        while (rowsLeft.getOrDefault(col, 0) > 0) {
            cells.add(carried.get(col));
            int left = rowsLeft.get(col) - 1;
            if (left == 0) {
                rowsLeft.remove(col);
                carried.remove(col);
            } else {
                rowsLeft.put(col, left);
            }
            col++;
        }
        return col;
    }

    private static int span(String attribute) {
        try {
            return Math.max(1, Math.min(MAX_SPAN, Integer.parseInt(attribute.strip())));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static String language(Element pre) {
        for (Element e : List.of(pre, pre.selectFirst("code") == null ? pre : pre.selectFirst("code"))) {
            for (String cls : e.classNames()) {
                String c = cls.toLowerCase(Locale.ROOT);
                if (c.startsWith("language-")) {
                    return c.substring(9);
                }
                if (c.startsWith("lang-")) {
                    return c.substring(5);
                }
            }
        }
        return "";
    }
}
