import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Writes the release archive's NOTICE: every library the archive bundles with the licence its POM declares (or its
 * parent's), and fails the build when one declares none this project can ship, or one it cannot recognise. Run by the
 * build as a single-file program: {@code java Notice.java DEPENDENCY_LIST LOCAL_REPOSITORY NOTICE}.
 */
public final class Notice {
    /** Licence families a bundled library may carry, each by the patterns its POM's name or URL matches. */
    private static final Map<String, Pattern> FAMILIES = new java.util.LinkedHashMap<>();

    static {
        FAMILIES.put("Apache-2.0", Pattern.compile("apache.*2|asl.*2|apache-2"));
        FAMILIES.put("MIT", Pattern.compile("\\bmit\\b|opensource.org/licenses/mit"));
        FAMILIES.put("BSD", Pattern.compile("\\bbsd\\b|bsd-[23]|\\b0bsd\\b|opensource.org/licenses/bsd"));
        FAMILIES.put("JDOM (Apache-style, no acknowledgment clause)", Pattern.compile("similar to apache license"));
        FAMILIES.put("EPL/EDL", Pattern.compile("eclipse public|eclipse distribution|\\bepl\\b|\\bedl\\b|epl-[12]"));
        FAMILIES.put("MPL", Pattern.compile("mozilla public license|\\bmpl\\b"));
        FAMILIES.put("CDDL/GPL with Classpath Exception", Pattern.compile("cddl|classpath exception|gpl2 w/ cpe"));
        FAMILIES.put("LGPL", Pattern.compile("lesser general public|\\blgpl"));
        FAMILIES.put("UPL-1.0", Pattern.compile("universal permissive"));
        FAMILIES.put("Bouncy Castle (MIT)", Pattern.compile("bouncy castle"));
        FAMILIES.put("Public domain / CC0", Pattern.compile("public domain|cc0|creativecommons.org/publicdomain"));
        FAMILIES.put("ISC", Pattern.compile("\\bisc\\b"));
        FAMILIES.put("Go (BSD)", Pattern.compile("go license"));
    }

    /** Libraries whose POM declares no licence: what their own distribution says, checked by hand. */
    private static final Map<String, String> DECLARED_ELSEWHERE = Map.of();

    /** Licences a bundled library must not carry: they would bind polyrag's users beyond Apache-2.0's terms. */
    private static final Pattern REFUSED = Pattern.compile("affero|\\bagpl|(?<!lesser )general public license(?!.*"
            + "(classpath|exception))|\\bsspl|commons clause|business source");

    public static void main(String[] args) throws Exception {
        Path list = Path.of(args[0]);
        Path repo = Path.of(args[1]);
        Path out = Path.of(args[2]);
        Map<String, String> byArtifact = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (String line : Files.readAllLines(list)) {
            String t = line.replaceAll("\u001B\\[[;\\d]*m", "").strip();
            if (t.isEmpty() || !t.contains(":") || t.startsWith("The following")) {
                continue;
            }
            String[] f = t.split("\\s+")[0].split(":");
            if (f.length < 5) {
                continue;
            }
            String g = f[0];
            String a = f[1];
            String v = f.length >= 6 ? f[4] : f[3];
            String scope = f[f.length - 1];
            if (!scope.equals("compile") && !scope.equals("runtime") || !f[2].equals("jar")) {
                continue;
            }
            String gav = g + ":" + a + ":" + v;
            if (g.equals("io.polyrag")) {
                continue; // polyrag's own modules: LICENSE
            }
            String licence = DECLARED_ELSEWHERE.getOrDefault(g + ":" + a, licence(repo, g, a, v, 0));
            if (licence == null) {
                problems.add(gav + ": its POM (and its parents') declare no licence");
                continue;
            }
            String lower = licence.toLowerCase(Locale.ROOT);
            String family = FAMILIES.entrySet().stream().filter(e -> e.getValue().matcher(lower).find())
                    .map(Map.Entry::getKey).findFirst().orElse(null);
            if (family == null && REFUSED.matcher(lower).find()) {
                problems.add(gav + ": " + licence + " cannot be shipped with polyrag (Apache-2.0)");
                continue;
            }
            if (family == null) {
                problems.add(gav + ": licence '" + licence + "' is not one this build recognises: check it and add "
                        + "its family to dist/src/build/Notice.java");
                continue;
            }
            byArtifact.put(gav, family + " — " + licence);
        }
        if (!problems.isEmpty()) {
            System.err.println("NOTICE: " + problems.size() + " bundled libraries cannot be listed:");
            problems.forEach(p -> System.err.println("  " + p));
            System.exit(1);
        }
        StringBuilder n = new StringBuilder();
        n.append("polyrag\nCopyright the polyrag authors. Licensed under the Apache License, Version 2.0 (LICENSE).\n\n")
                .append("This distribution bundles the following ").append(byArtifact.size())
                .append(" libraries in lib/, each under its own licence as its Maven POM declares it\n")
                .append("(group:artifact:version — licence family — the licence's name in the POM):\n\n");
        byArtifact.forEach((gav, l) -> n.append(gav).append(" — ").append(l).append('\n'));
        Files.writeString(out, n.toString());
        System.out.println("NOTICE: " + byArtifact.size() + " bundled libraries, every licence recognised");
    }

    /** The licence names (and URLs) a POM declares, following its parents; null when none does. */
    static String licence(Path repo, String g, String a, String v, int depth) throws Exception {
        Path pom = repo.resolve(g.replace('.', '/')).resolve(a).resolve(v).resolve(a + "-" + v + ".pom");
        if (depth > 10 || !Files.isRegularFile(pom)) {
            return null;
        }
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setFeature("http://xml.org/sax/features/external-general-entities", false);
        f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        f.setExpandEntityReferences(false);
        Document d = f.newDocumentBuilder().parse(pom.toFile());
        Element project = d.getDocumentElement();
        Element licenses = child(project, "licenses");
        if (licenses != null) {
            List<String> names = new ArrayList<>();
            NodeList ls = licenses.getElementsByTagName("license");
            for (int i = 0; i < ls.getLength(); i++) {
                Element l = (Element) ls.item(i);
                String name = text(child(l, "name"));
                String url = text(child(l, "url"));
                names.add((name.isEmpty() ? url : name + (url.isEmpty() ? "" : " (" + url + ")")).strip());
            }
            if (!names.isEmpty()) {
                return String.join("; ", names);
            }
        }
        Element parent = child(project, "parent");
        if (parent == null) {
            return null;
        }
        return licence(repo, text(child(parent, "groupId")), text(child(parent, "artifactId")),
                text(child(parent, "version")), depth + 1);
    }

    private static Element child(Element e, String name) {
        if (e == null) {
            return null;
        }
        for (Node c = e.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element x && x.getTagName().equals(name)) {
                return x;
            }
        }
        return null;
    }

    private static String text(Element e) {
        return e == null ? "" : e.getTextContent().strip().replaceAll("\\s+", " ");
    }
}
