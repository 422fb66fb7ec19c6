package io.polyrag.store.rdf;

import java.util.ArrayList;
import java.util.List;
import org.apache.jena.datatypes.xsd.XSDDatatype;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.graph.Triple;
import org.apache.jena.riot.out.NodeFmtLib;

/**
 * A batch's statements in the {@link RdfEncoding}, as nodes: an embedded dataset adds them as they are, an endpoint
 * gets them as N-Triples. Writing them as Turtle text for TDB2 to parse back was a fifth of writing a batch there.
 */
final class Triples {
    static final Node TYPE = NodeFactory.createURI("http://www.w3.org/1999/02/22-rdf-syntax-ns#type");
    static final Node STATEMENT = NodeFactory.createURI("http://www.w3.org/1999/02/22-rdf-syntax-ns#Statement");
    static final Node SUBJECT = NodeFactory.createURI("http://www.w3.org/1999/02/22-rdf-syntax-ns#subject");
    static final Node PREDICATE = NodeFactory.createURI("http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate");
    static final Node OBJECT = NodeFactory.createURI("http://www.w3.org/1999/02/22-rdf-syntax-ns#object");

    private final List<Triple> triples = new ArrayList<>();

    /** A term of polyrag's vocabulary ({@code pr:NAME}). */
    static Node vocab(String name) {
        return NodeFactory.createURI(RdfEncoding.NS + name);
    }

    static Node iri(String iri) {
        return NodeFactory.createURI(iri);
    }

    static Node text(String s) {
        return NodeFactory.createLiteralString(s);
    }

    static Node integer(long n) {
        return NodeFactory.createLiteralDT(Long.toString(n), XSDDatatype.XSDinteger);
    }

    void add(Node subject, Node predicate, Node object) {
        triples.add(Triple.create(subject, predicate, object));
    }

    List<Triple> list() {
        return triples;
    }

    boolean isEmpty() {
        return triples.isEmpty();
    }

    /** The statements as N-Triples lines, for an {@code INSERT DATA}. */
    String nTriples() {
        StringBuilder b = new StringBuilder(triples.size() * 96);
        for (Triple t : triples) {
            b.append(NodeFmtLib.strNT(t.getSubject())).append(' ').append(NodeFmtLib.strNT(t.getPredicate()))
                    .append(' ').append(NodeFmtLib.strNT(t.getObject())).append(" .\n");
        }
        return b.toString();
    }
}
