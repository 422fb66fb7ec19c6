package io.polyrag.retrieval;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether a Cypher query written by a language model may run: only reads are allowed. String literals and
 * quoted names are blanked first (a comment or a carriage return outside them is refused), so a name like {@code 'Create Corp'} is not a clause, and then any
 * writing clause (CREATE, MERGE, SET, DELETE, DETACH, REMOVE, DROP, LOAD CSV, FOREACH, ALTER, GRANT, …) or any
 * procedure CALL outside a short list of read-only ones is refused. The store then runs what passes in a read
 * transaction where the backend has one, so this check is the first of two walls, not the only one.
 */
final class CypherGuard {
    // A keyword after a digit is one to the parser ("WHERE c.version > 0SET c.kb = …"), where \\b saw none.
    private static final Pattern WRITE = Pattern.compile("(?<![\\p{L}_$])(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|"
            + "DROP|LOAD|FOREACH|ALTER|GRANT|DENY|REVOKE|RENAME|START|STOP|TERMINATE|COPY|INSTALL|ATTACH|IMPORT|"
            + "EXPORT|CHECKPOINT|BEGIN|COMMIT|ROLLBACK|USE)(?![\\p{L}\\p{N}_$])", Pattern.CASE_INSENSITIVE);
    // Likewise a CALL after a digit ("> 0CALL dbms.setConfigValue(…)"): \\b let it past the procedure list.
    private static final Pattern CALL = Pattern.compile("(?<![\\p{L}_$])CALL\\s+([A-Za-z_][\\w.]*)?",
            Pattern.CASE_INSENSITIVE);
    private static final Set<String> READ_PROCEDURES = Set.of("db.labels", "db.relationshiptypes",
            "db.propertykeys", "show_tables", "table_info");
    // Runs of plain characters are taken whole (possessively), so a long literal is not one regex step per
    // character deep (a 10,000-character string overflowed the stack).
    private static final Pattern LITERALS = Pattern.compile("'(?:[^'\\\\]++|\\\\.)*+'|\"(?:[^\"\\\\]++|\\\\.)*+\"|`[^`]*+`",
            Pattern.DOTALL);

    private CypherGuard() {
    }

    /** Why {@code cypher} may not run, or empty when it is a read. */
    static Optional<String> rejection(String cypher) {
        if (cypher == null || cypher.isBlank()) {
            return Optional.of("empty query");
        }
        String code = LITERALS.matcher(cypher).replaceAll(" '' ");
        // No comments at all (a model's query needs none): where one ends is where parsers differ ("/* **/" is
        // still open to Kuzu, a lone carriage return ends a line comment to some), and what it hides runs.
        if (code.contains("//") || code.contains("/*") || code.indexOf('\r') >= 0) {
            return Optional.of("it holds a comment or a carriage return, which a query needs neither");
        }
        // Outside its strings a query is plain ASCII: Kuzu and Neo4j take other spaces (U+2000, U+3000, …) between
        // words, and Neo4j reads \\u escapes even in keywords ("C\\u0041LL"), which the patterns below do not see.
        if (cypher.contains("\\u") || cypher.contains("\\U")) {
            return Optional.of("it holds a unicode escape (\\u…), which a query needs none of");
        }
        for (int i = 0; i < code.length(); i++) {
            char ch = code.charAt(i);
            if (ch == '\\' || ch > 0x7E || ch < 0x20 && ch != '\n' && ch != '\t') {
                return Optional.of(String.format(Locale.ROOT, "it holds the character U+%04X outside its strings "
                        + "(a query's own words are plain ASCII)", (int) ch));
            }
        }
        if (code.contains(";") && !code.strip().endsWith(";") || code.indexOf(';') != code.lastIndexOf(';')) {
            return Optional.of("more than one statement");
        }
        Matcher w = WRITE.matcher(code);
        if (w.find()) {
            return Optional.of("it contains the writing clause " + w.group(1).toUpperCase(Locale.ROOT));
        }
        Matcher c = CALL.matcher(code);
        while (c.find()) {
            String procedure = c.group(1) == null ? "" : c.group(1).toLowerCase(Locale.ROOT);
            if (!READ_PROCEDURES.contains(procedure)) {
                return Optional.of("it calls the procedure '" + (procedure.isEmpty() ? "{…}" : procedure)
                        + "', which is not known to be read-only");
            }
        }
        if (!Pattern.compile("\\b(MATCH|RETURN)\\b", Pattern.CASE_INSENSITIVE).matcher(code).find()) {
            return Optional.of("it neither matches nor returns anything");
        }
        return Optional.empty();
    }
}
