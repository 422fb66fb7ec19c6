package io.polyrag.store.rdf;

import java.util.ArrayList;
import java.util.List;
import org.apache.jena.datatypes.xsd.XSDDatatype;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.graph.Triple;

/**
 * A batch's statements in the {@link RdfEncoding}, as nodes: an embedded dataset adds them as they are, an endpoint
 * gets them as N-Triples. Only IRIs, plain strings and integers are made here. Writing them as Turtle text for TDB2 to parse back was a fifth of writing a batch there.
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

    /**
     * The statements as N-Triples lines, for an {@code INSERT DATA}: IRIs as they are (every one is built from
     * percent-encoded text), strings escaped by {@link RdfEncoding#literal} (every control character as
     * {@code \\uXXXX}, which any endpoint reads), integers by their lexical form.
     */
    String nTriples() {
        StringBuilder b = new StringBuilder(triples.size() * 96);
        for (Triple t : triples) {
            term(t.getSubject(), b).append(' ');
            term(t.getPredicate(), b).append(' ');
            term(t.getObject(), b).append(" .\n");
        }
        return b.toString();
    }

    private static StringBuilder term(Node node, StringBuilder b) {
        if (node.isURI()) {
            return b.append('<').append(node.getURI()).append('>');
        }
        if (XSDDatatype.XSDinteger.getURI().equals(node.getLiteralDatatypeURI())) {
            return b.append(node.getLiteralLexicalForm());
        }
        return b.append(RdfEncoding.literal(node.getLiteralLexicalForm()));
    }
}
