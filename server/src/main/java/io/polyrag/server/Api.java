package io.polyrag.server;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.model.Ids;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Registers the routes and describes them in one step, so the OpenAPI document ({@code GET /v1/openapi.json}) lists
 * exactly the routes that exist, each with its parameters, body and the schema of every response — derived from the
 * wire records by {@link Schemas}. A route cannot be added without its description.
 */
final class Api {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final String JSON = "application/json";
    static final String SSE = "text/event-stream";

    private final RoutesConfig routes;
    private final Schemas schemas = new Schemas();
    private final List<Op> ops = new ArrayList<>();

    /** One operation's description. */
    static final class Op {
        final String method;
        final String path;
        private String summary = "";
        private String tag = "";
        private final List<ObjectNode> params = new ArrayList<>();
        /** Query parameters this route takes more than once. */
        private final Set<String> repeatable = new HashSet<>();
        private ObjectNode body;
        private String bodyType;
        /** A multipart body the route takes besides its JSON one; null: none. */
        private ObjectNode orMultipart;
        private final Map<Integer, Object[]> responses = new LinkedHashMap<>();
        private boolean auth = true;
        private boolean head;

        Op(String method, String path) {
            this.method = method;
            this.path = path;
        }

        Op summary(String tag, String summary) {
            this.tag = tag;
            this.summary = summary;
            return this;
        }

        Op query(String name, String type, String description) {
            return param(name, "query", type, false, description);
        }

        /** A query parameter that may be given more than once, each a value (or comma-separated values) of a list. */
        Op queryList(String name, String description) {
            repeatable.add(name);
            return param(name, "query", "string", false, description);
        }

        Op required(String name, String type, String description) {
            return param(name, "query", type, true, description);
        }

        Op path(String name, String description) {
            return param(name, "path", "string", true, description);
        }

        Op header(String name, String description) {
            return param(name, "header", "string", false, description);
        }

        private Op param(String name, String in, String type, boolean required, String description) {
            ObjectNode p = F.objectNode().put("name", name).put("in", in).put("required", required)
                    .put("description", description);
            p.putObject("schema").put("type", type);
            params.add(p);
            return this;
        }

        Op noAuth() {
            this.auth = false;
            return this;
        }

        /** A JSON body of this record; {@code required} names the fields it must have. */
        Op body(Schemas s, Class<?> type, String... required) {
            this.body = s.ref(type, Set.of(required));
            this.bodyType = JSON;
            return this;
        }

        /** A multipart body with the named form fields ({@code files}: one or more files). */
        Op multipart(String... fields) {
            this.body = multipartSchema(fields);
            this.bodyType = "multipart/form-data";
            return this;
        }

        /** A multipart body the route takes besides its JSON one (files named in {@code files}). */
        Op orMultipart(List<String> files, String... fields) {
            this.orMultipart = multipartSchema(fields);
            ObjectNode props = (ObjectNode) orMultipart.get("properties");
            var required = orMultipart.withArray("required");
            files.forEach(f -> {
                props.putObject(f).put("type", "string").put("contentMediaType", "application/octet-stream");
                required.add(f);
            });
            return this;
        }

        private static ObjectNode multipartSchema(String... fields) {
            ObjectNode schema = F.objectNode().put("type", "object");
            ObjectNode props = schema.putObject("properties");
            for (String f : fields) {
                if (f.equals("files")) {
                    props.putObject("files").put("type", "array").putObject("items").put("type", "string")
                            .put("contentMediaType", "application/octet-stream");
                } else if (f.equals("file")) {
                    props.putObject("file").put("type", "string").put("contentMediaType", "application/octet-stream");
                } else if (f.equals("categories")) {
                    // Repeatable: one part per category.
                    props.putObject(f).put("type", "array").putObject("items").put("type", "string");
                } else {
                    props.putObject(f).put("type", "string");
                }
            }
            if (fields.length > 0) {
                schema.putArray("required").add(fields[0]);
            }
            return schema;
        }

        /** A response: its status, a description, and the record its JSON body is (null: no body). */
        Op response(int status, String description, Class<?> type) {
            responses.put(status, new Object[] {description, type, JSON});
            return this;
        }

        /** A problem response with a body of its own (a 502 that still carries the sources). */
        Op problem(int status, String description, Class<?> type) {
            responses.put(status, new Object[] {description, type, Http.PROBLEM});
            return this;
        }

        /** A response of any media type (a stored original). */
        Op binary(int status, String description) {
            responses.put(status, new Object[] {description, byte[].class, "*/*"});
            return this;
        }

        /** A plain-text response. */
        Op text(int status, String description) {
            responses.put(status, new Object[] {description, String.class, "text/plain"});
            return this;
        }

        Op events(String description) {
            responses.put(200, new Object[] {description, null, SSE});
            return this;
        }
    }

    private final UnaryOperator<Handler> around;

    Api(RoutesConfig routes) {
        this(routes, h -> h);
    }

    /** @param around wraps every handler (the request's trace made current around it) */
    Api(RoutesConfig routes, UnaryOperator<Handler> around) {
        this.routes = routes;
        this.around = around;
    }

    Schemas schemas() {
        return schemas;
    }

    /** A GET route, which answers HEAD too. */
    Op get(String path, Handler h) {
        Op op = add(new Op("get", path));
        routes.get(path, around.apply(checked(op, h)));
        routes.head(path, around.apply(checked(op, h)));
        op.head = true;
        return op;
    }

    /**
     * A GET route without HEAD: a stream, or a read that runs work each time (an evaluation), which a HEAD would run
     * only to say nothing.
     */
    Op stream(String path, Handler h) {
        Op op = add(new Op("get", path));
        routes.get(path, around.apply(checked(op, h)));
        // Without a HEAD route Javalin answers a HEAD 200 wherever a GET is, having run nothing (an unknown
        // knowledge base's evaluation "found"): a 405 says what is answered.
        routes.head(path, ctx -> {
            ctx.header("Allow", "GET");
            throw new HttpResponseException(405, "method HEAD is not allowed on " + ctx.path() + " (it would do the "
                    + "work only to send nothing); use GET");
        });
        return op;
    }

    Op post(String path, Handler h) {
        Op op = add(new Op("post", path));
        routes.post(path, around.apply(checked(op, h)));
        return op;
    }

    Op put(String path, Handler h) {
        Op op = add(new Op("put", path));
        routes.put(path, around.apply(checked(op, h)));
        return op;
    }

    Op delete(String path, Handler h) {
        Op op = add(new Op("delete", path));
        routes.delete(path, around.apply(checked(op, h)));
        return op;
    }

    /**
     * The handler, after the request's query parameters are checked against those the route declares: an unknown
     * one is a 400 naming it and the ones there are, as a parameter given twice that takes one value. Ignored, a typo
     * changed what a request did: {@code DELETE …/judgments?queryId=q1} deleted every judged query.
     */
    private static Handler checked(Op op, Handler h) {
        return ctx -> {
            Set<String> declared = new TreeSet<>();
            op.params.stream().filter(p -> p.path("in").asString("").equals("query"))
                    .forEach(p -> declared.add(p.path("name").asString("")));
            for (Map.Entry<String, List<String>> e : queryParams(ctx.queryString()).entrySet()) {
                if (!declared.contains(e.getKey())) {
                    throw new InvalidInputException("unknown query parameter '" + Ids.abbreviate(e.getKey(), 40)
                            + "': " + (declared.isEmpty() ? op.method.toUpperCase(Locale.ROOT) + " " + op.path
                                    + " takes none" : "this route takes " + String.join(", ", declared)));
                }
                if (e.getValue().size() > 1 && !op.repeatable.contains(e.getKey())) {
                    throw new InvalidInputException("query parameter '" + e.getKey() + "' is given "
                            + e.getValue().size() + " times: give it once");
                }
            }
            h.handle(ctx);
        };
    }

    /**
     * The query string's parameters by name, decoded as UTF-8 (the servlet's map decodes by the body's charset: a
     * request declaring a bad one failed here with a 500); a malformed escape in a value is refused when the handler
     * reads it ({@link Http#query}), one in a name here.
     */
    private static Map<String, List<String>> queryParams(String query) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) {
            return out;
        }
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            String name = pair.substring(0, pair.indexOf('=') < 0 ? pair.length() : pair.indexOf('='));
            out.computeIfAbsent(Http.decoded(name, null), k -> new ArrayList<>()).add(pair);
        }
        return out;
    }

    private Op add(Op op) {
        ops.add(op);
        return op;
    }

    /** Every operation as {@code METHOD path}, HEAD included where it answers. */
    List<String> operations() {
        List<String> out = new ArrayList<>();
        for (Op o : ops) {
            out.add(o.method.toUpperCase(Locale.ROOT) + " " + o.path);
            if (o.head) {
                out.add("HEAD " + o.path);
            }
        }
        return out;
    }

    /** The OpenAPI 3.1 document. */
    // style: the OpenAPI document's top-level sections, written in the order they appear in it
    ObjectNode document(String version) {
        ObjectNode doc = F.objectNode().put("openapi", "3.1.0");
        ObjectNode info = doc.putObject("info").put("title", "polyrag").put("version", version).put("description",
                "Hybrid retrieval over vector, full-text, graph and RDF stores. Errors are application/problem+json. "
                        + "With API keys, every /v1 route needs 'Authorization: Bearer <key>' or 'X-Api-Key'.");
        info.putObject("license").put("name", "Apache-2.0").put("identifier", "Apache-2.0");
        doc.putArray("servers").add(F.objectNode().put("url", "/").put("description", "the server that serves this "
                + "document"));
        doc.putArray("tags");
        ObjectNode paths = doc.putObject("paths");
        ObjectNode problem = schemas.ref(Problem.class);
        for (Op o : ops) {
            ObjectNode item = paths.has(o.path) ? (ObjectNode) paths.get(o.path) : paths.putObject(o.path);
            ObjectNode op = item.putObject(o.method);
            op.put("operationId", operationId(o)).put("summary", o.summary);
            op.putArray("tags").add(o.tag);
            if (!o.params.isEmpty()) {
                op.putArray("parameters").addAll(o.params);
            }
            if (o.body != null) {
                ObjectNode rb = op.putObject("requestBody").put("required", true);
                ObjectNode content = rb.putObject("content");
                content.putObject(o.bodyType).set("schema", o.body);
                if (o.orMultipart != null) {
                    content.putObject("multipart/form-data").set("schema", o.orMultipart);
                }
            }
            ObjectNode rs = op.putObject("responses");
            o.responses.forEach((status, r) -> {
                ObjectNode resp = rs.putObject(Integer.toString(status)).put("description", (String) r[0]);
                if (r[2].equals(SSE)) {
                    resp.putObject("content").putObject(SSE).putObject("schema").put("type", "string");
                } else if (r[1] == byte[].class) {
                    resp.putObject("content").putObject("*/*").putObject("schema").put("type", "string")
                            .put("contentMediaType", "application/octet-stream");
                } else if (r[1] == String.class) {
                    resp.putObject("content").putObject((String) r[2]).putObject("schema").put("type", "string");
                } else if (r[1] == Object.class) {
                    resp.putObject("content").putObject((String) r[2]).putObject("schema").put("type", "object");
                } else if (r[1] != null) {
                    resp.putObject("content").putObject((String) r[2]).set("schema", schemas.ref((Class<?>) r[1]));
                }
            });
            for (String range : new String[] {"4XX", "5XX"}) {
                if (!rs.has(range)) {
                    ObjectNode err = rs.putObject(range).put("description", range.startsWith("4")
                            ? "a problem with the request; the detail names the field and the fix"
                            : "a problem of the server or a store; the detail says which, and what to do");
                    err.putObject("content").putObject(Http.PROBLEM).set("schema", problem.deepCopy());
                }
            }
            if (!o.auth) {
                op.putArray("security");
            }
            if (o.head) {
                // HEAD: the same route, statuses and headers, no body.
                ObjectNode head = item.putObject("head").put("operationId", "head" + operationId(o).substring(3))
                        .put("summary", o.summary + " (headers only)");
                head.putArray("tags").add(o.tag);
                if (!o.params.isEmpty()) {
                    head.putArray("parameters").addAll(o.params);
                }
                ObjectNode hr = head.putObject("responses");
                o.responses.forEach((status, r) -> hr.putObject(Integer.toString(status)).put("description",
                        (String) r[0]));
                hr.putObject("4XX").put("description", "a problem with the request (headers only)");
                hr.putObject("5XX").put("description", "a problem of the server (headers only)");
                if (!o.auth) {
                    head.putArray("security");
                }
            }
        }
        ObjectNode components = doc.putObject("components");
        components.set("schemas", schemas.components());
        ObjectNode sec = components.putObject("securitySchemes");
        sec.putObject("bearer").put("type", "http").put("scheme", "bearer");
        sec.putObject("apiKey").put("type", "apiKey").put("in", "header").put("name", "X-Api-Key");
        doc.putArray("security").add(F.objectNode().set("bearer", F.arrayNode()))
                .add(F.objectNode().set("apiKey", F.arrayNode()));
        Set<String> tags = new TreeSet<>();
        ops.forEach(o -> tags.add(o.tag));
        tags.forEach(t -> ((ArrayNode) doc.get("tags")).add(F.objectNode().put("name", t)
                .put("description", "polyrag " + t)));
        return doc;
    }

    private static String operationId(Op o) {
        StringBuilder sb = new StringBuilder(o.method);
        for (String part : o.path.split("[/{}-]")) {
            if (!part.isEmpty() && !part.equals("v1")) {
                sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return sb.toString();
    }
}
