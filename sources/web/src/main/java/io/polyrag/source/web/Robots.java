package io.polyrag.source.web;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A site's robots.txt rules for one agent (RFC 9309). */
public record Robots(List<Rule> rules, List<String> sitemaps, Duration crawlDelay) {
    record Rule(boolean allow, String pattern, int length) {
    }

    /** The group naming the agent, else the {@code *} group; Sitemap lines whatever the group. */
    static Robots parse(String text, String agent) {
        // A byte-order mark (a file saved by a Windows editor, served by IIS) made the first line's key
        // "\uFEFFuser-agent": no group, so every rule of a one-group file was dropped and disallowed paths crawled.
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        Map<String, List<String[]>> groups = new LinkedHashMap<>();
        List<String> sitemaps = new ArrayList<>();
        List<String> current = new ArrayList<>();
        boolean inRules = false;
        for (String raw : text.split("\r?\n|\r")) {
            String line = raw.replaceFirst("#.*", "").strip();
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String key = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            switch (key) {
                case "user-agent" -> {
                    if (inRules) {
                        current = new ArrayList<>();
                        inRules = false;
                    }
                    current.add(value.toLowerCase(Locale.ROOT));
                    groups.putIfAbsent(value.toLowerCase(Locale.ROOT), new ArrayList<>());
                }
                case "allow", "disallow", "crawl-delay" -> {
                    inRules = true;
                    for (String a : current) {
                        groups.get(a).add(new String[] {key, value});
                    }
                }
                case "sitemap" -> sitemaps.add(value);
                default -> { }
            }
        }
        List<String[]> mine = groups.entrySet().stream().filter(e -> e.getKey().equals(agent.toLowerCase(
                Locale.ROOT))).map(Map.Entry::getValue).findFirst()
                .orElse(groups.getOrDefault("*", List.of()));
        List<Rule> rules = new ArrayList<>();
        Duration delay = Duration.ZERO;
        for (String[] r : mine) {
            if (r[0].equals("crawl-delay")) {
                try {
                    delay = Duration.ofMillis(Math.clamp((long) (Double.parseDouble(r[1]) * 1000), 0, 10_000));
                } catch (NumberFormatException e) {
                    // ignored, as crawlers do
                }
            } else if (!r[1].isEmpty()) {
                String pattern = normalized(r[1]);
                rules.add(new Rule(r[0].equals("allow"), pattern, pattern.length()));
            }
        }
        return new Robots(rules, sitemaps, delay);
    }

    /**
     * RFC 9309 matching: {@code *} stands for any characters, a final {@code $} for the end of the path, the rest
     * is literal, and a rule without {@code $} matches a prefix. Greedy, going back only to the last {@code *}:
     * at worst path length times rule length. (It was a regular expression of {@code .*} per star, which a rule
     * of many stars made backtrack for hours on a long path — found by fuzzing: one robots.txt could stall a
     * sync job for good.)
     */
    static boolean matches(String rule, String path) {
        String p = rule.endsWith("$") ? rule.substring(0, rule.length() - 1) : rule + "*";
        int i = 0;
        int j = 0;
        int star = -1;
        int mark = 0;
        while (i < path.length()) {
            if (j < p.length() && p.charAt(j) == '*') {
                star = j++;
                mark = i;
            } else if (j < p.length() && p.charAt(j) == path.charAt(i)) {
                i++;
                j++;
            } else if (star >= 0) {
                j = star + 1;
                i = ++mark;
            } else {
                return false;
            }
        }
        while (j < p.length() && p.charAt(j) == '*') {
            j++;
        }
        return j == p.length();
    }

    /**
     * A rule's path or a URL's, as RFC 9309 (2.2.2) compares them: characters outside ASCII percent-encoded as UTF-8,
     * an encoded unreserved character ({@code %62} for {@code b}) decoded, hex digits upper case. Compared raw,
     * {@code Disallow: /über/} never matched the link a site writes ({@code /%C3%BCber/}).
     */
    static String normalized(String path) {
        StringBuilder out = new StringBuilder(path.length() + 8);
        for (int i = 0; i < path.length(); ) {
            int c = path.codePointAt(i);
            if (c == '%' && i + 2 < path.length() && hex(path.charAt(i + 1))
                    && hex(path.charAt(i + 2))) {
                int b = Integer.parseInt(path.substring(i + 1, i + 3), 16);
                if (Character.isLetterOrDigit(b) && b < 0x80 || b == '-' || b == '.' || b == '_' || b == '~') {
                    out.append((char) b);
                } else {
                    out.append('%').append(path.substring(i + 1, i + 3).toUpperCase(Locale.ROOT));
                }
                i += 3;
            } else if (c >= 0x80) {
                for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
                }
                i += Character.charCount(c);
            } else {
                out.append((char) c);
                i++;
            }
        }
        return out.toString();
    }

    private static boolean hex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    /**
     * Whether the agent may fetch this URL: the longest matching rule decides, an allow wins a tie. An escaped slash
     * is compared as written (RFC 9309) and as the slash servers decode it to: '/admin%2Fx' passed
     * 'Disallow: /admin/'.
     */
    boolean allowed(URI u) {
        String path = normalized((u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath())
                + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery()));
        return allowedPath(path) && (!path.contains("%2F") || allowedPath(path.replace("%2F", "/")));
    }

    private boolean allowedPath(String path) {
        Rule best = null;
        for (Rule r : rules) {
            if (matches(r.pattern(), path) && (best == null || r.length() > best.length()
                    || r.length() == best.length() && r.allow())) {
                best = r;
            }
        }
        return best == null || best.allow();
    }
}
