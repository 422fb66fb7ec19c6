package io.polyrag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CypherGuardTest {
    @ParameterizedTest
    @ValueSource(strings = {
        "MATCH (e:Entity) RETURN e.name",
        "MATCH (c:Chunk)-[:MENTIONS]->(e:Entity {id: 'create corp'}) RETURN DISTINCT c.id AS chunk LIMIT 5",
        "MATCH (e:Entity) WHERE e.name = \"DELETE me; SET x // not a comment /*\" RETURN e",
        "MATCH (a)-[r:RELATES]->(b) WITH a, count(r) AS n ORDER BY n DESC RETURN a.id, n LIMIT 3;",
        "CALL db.labels() YIELD label RETURN label",
        "MATCH (n) RETURN n.`set`, n.offset_set",
        "MATCH (e:Entity) WHERE e.id STARTS WITH 'a' RETURN e.id",
    })
    void reads_pass(String cypher) {
        assertThat(CypherGuard.rejection(cypher)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "CREATE (e:Entity {id: 'x'}) RETURN e",
        "MATCH (e) MERGE (e)-[:R]->(e) RETURN e",
        "MATCH (e) SET e.name = 'x' RETURN e",
        "MATCH (e) DETACH DELETE e",
        "match (e) delete e",
        "MATCH (e) REMOVE e.name RETURN e",
        "LOAD CSV FROM 'file:///etc/passwd' AS l RETURN l",
        "MATCH (e) FOREACH (x IN [1] | CREATE (:X)) RETURN e",
        "CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DELETE n', {})",
        "CALL dbms.security.createUser('x', 'y', false)",
        "MATCH (e) CALL { WITH e CREATE (:X) } RETURN e",
        "MATCH (e) RETURN e; MATCH (f) DETACH DELETE f",
        "DROP TABLE Entity",
        // A keyword glued after a digit is one to the parser; a comment's end is where parsers differ.
        "MATCH (c:Chunk) WHERE c.version > 0SET c.kb = 'eve/default' RETURN c.id AS chunk",
        "MATCH (c:Chunk) WHERE c.version > 0CALL dbms.setConfigValue('x','y') RETURN c.id AS chunk",
        "MATCH (c:Chunk) WHERE c.version > 1e3CALL db.info() YIELD name RETURN c.id AS chunk",
        "MATCH (c:Chunk) WHERE 1 = 1DELETE c RETURN 1 AS chunk",
        "MATCH (c:Chunk) WHERE true /* **/ AND '*/ DETACH DELETE c RETURN 1 AS chunk //'",
        "MATCH (n) /* REMOVE n.x */ RETURN n",
        "MATCH (e:Entity) RETURN e // MERGE in a comment",
        "MATCH (e:Entity) RETURN e //\r DETACH DELETE e",
        "MATCH (e) RETURN e LIMIT 1LOAD FROM 'x.csv' RETURN *",
        "",
        "   ",
        "hello there",
    })
    void writes_and_junk_are_refused(String cypher) {
        assertThat(CypherGuard.rejection(cypher)).isPresent();
    }

    /** A long literal is one token to the guard, whatever is inside it (it overflowed the regex's stack). */
    @org.junit.jupiter.api.Test
    void long_literals_are_read_without_overflowing() {
        String literal = "x\\'y ".repeat(20_000) + "CREATE " + "z".repeat(100_000);
        assertThat(CypherGuard.rejection("MATCH (e:Entity) WHERE e.name = '" + literal + "' RETURN e")).isEmpty();
        assertThat(CypherGuard.rejection("MATCH (e) WHERE e.name = \"" + "a".repeat(100_000) + "\" CREATE (:X)"))
                .isPresent();
    }

    /** Outside its strings a query is plain ASCII: another space before CALL, or a \\u escape, hid the call. */
    @org.junit.jupiter.api.Test
    void a_call_hidden_by_a_unicode_space_or_escape_is_refused() {
        for (String hidden : java.util.List.of("MATCH (c:Chunk) CALL\u2000db.info() YIELD name RETURN c.id AS chunk",
                "MATCH (c:Chunk) C\\u0041LL db.info() YIELD name RETURN c.id AS chunk",
                "MATCH (c:Chunk)\u3000CALL dbms.setConfigValue('a','b') RETURN c.id AS chunk")) {
            org.assertj.core.api.Assertions.assertThat(CypherGuard.rejection(hidden)).as(hidden).isPresent();
        }
        org.assertj.core.api.Assertions.assertThat(CypherGuard.rejection("MATCH (e:Entity) WHERE e.name = 'Zoë Ürs' "
                + "RETURN e.name")).as("letters of any script inside a string").isEmpty();
    }
}
