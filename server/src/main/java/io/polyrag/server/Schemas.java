package io.polyrag.server;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the records the API reads and writes, derived from the records
 * themselves with the names Jackson gives them, so the document cannot drift from the code. Every property is
 * required (the JSON always carries it, null or not) unless it is left out when null ({@code
 * @JsonInclude(NON_NULL)}); reference types may be null, primitives may not; no other property is allowed.
 */
final class Schemas {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final Map<String, ObjectNode> schemas = new TreeMap<>();

    /** A {@code $ref} to the schema of {@code type}, defining it (and what it uses) on first use. */
    ObjectNode ref(Class<?> type) {
        return ref(type, null);
    }

    /**
     * A {@code $ref} to the schema of a request body: only {@code required} properties are required (null: every
     * one, as in responses).
     */
    ObjectNode ref(Class<?> type, Set<String> required) {
        String name = name(type);
        // One record as two request bodies that require different fields (a source's create and its update): each
        // its own schema, or the second showed the first's required fields.
        Set<String> first = requiredBy.putIfAbsent(name, required == null ? Set.of() : required);
        if (first != null && required != null && !first.equals(required)) {
            StringBuilder suffix = new StringBuilder("Without");
            first.stream().filter(f -> !required.contains(f)).sorted().forEach(f -> {
                for (String part : f.split("_")) {
                    suffix.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
                }
            });
            name = name + (suffix.length() > "Without".length() ? suffix : "Variant");
        }
        if (!schemas.containsKey(name)) {
            schemas.put(name, F.objectNode());
            schemas.put(name, object(type, required));
        }
        return F.objectNode().put("$ref", "#/components/schemas/" + name);
    }

    /** The required fields each schema name was first made with. */
    private final Map<String, Set<String>> requiredBy = new TreeMap<>();

    ObjectNode components() {
        ObjectNode out = F.objectNode();
        schemas.forEach(out::set);
        return out;
    }

    /** The schema's name: the record's simple name, qualified by its enclosing class where it has one. */
    static String name(Class<?> type) {
        Class<?> outer = type.getEnclosingClass();
        return outer == null ? type.getSimpleName() : outer.getSimpleName() + type.getSimpleName();
    }

    private ObjectNode object(Class<?> type, Set<String> only) {
        ObjectNode s = F.objectNode().put("type", "object");
        ObjectNode props = s.putObject("properties");
        ArrayNode required = s.putArray("required");
        boolean snake = type.isAnnotationPresent(JsonNaming.class)
                && type.getAnnotation(JsonNaming.class).value() == PropertyNamingStrategies.SnakeCaseStrategy.class;
        for (RecordComponent c : type.getRecordComponents()) {
            JsonProperty named = c.getAnnotation(JsonProperty.class);
            if (named == null && c.getAccessor().getAnnotation(JsonProperty.class) != null) {
                named = c.getAccessor().getAnnotation(JsonProperty.class);
            }
            String json = named != null && !named.value().isEmpty() ? named.value()
                    : snake ? snake(c.getName()) : c.getName();
            JsonFormat format = c.getAccessor().getAnnotation(
                    JsonFormat.class);
            if (format == null) {
                try {
                    format = type.getDeclaredField(c.getName()).getAnnotation(
                            JsonFormat.class);
                } catch (NoSuchFieldException e) {
                    throw new IllegalStateException(e);
                }
            }
            ObjectNode prop = schemaOf(c.getGenericType(), true);
            if (format != null && Arrays.asList(format.with()).contains(
                    JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)) {
                ObjectNode one = F.objectNode();
                one.putArray("anyOf").add(prop).add(F.objectNode().put("type", "string"));
                prop = one;
            }
            props.set(json, prop);
            // A component left out when null (@JsonInclude(NON_NULL)) is not always carried: not required.
            JsonInclude include = c.getAccessor().getAnnotation(
                    JsonInclude.class);
            boolean omittedWhenNull = include != null
                    && include.value() == JsonInclude.Include.NON_NULL;
            if ((only == null || only.contains(json)) && !omittedWhenNull) {
                required.add(json);
            }
        }
        // A body that takes more than it reads (an OpenAI chat request's temperature, tools…) says so.
        JsonIgnoreProperties ignoring = type.getAnnotation(JsonIgnoreProperties.class);
        s.put("additionalProperties", ignoring != null && ignoring.ignoreUnknown());
        return s;
    }

    /** The schema of a Java type; {@code nullable} for reference types that may be null on the wire. */
    ObjectNode schemaOf(Type t, boolean nullable) {
        if (t instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            if (Collection.class.isAssignableFrom(raw)) {
                return typed("array", nullable).set("items", schemaOf(p.getActualTypeArguments()[0], false));
            }
            if (Map.class.isAssignableFrom(raw)) {
                return typed("object", nullable).set("additionalProperties", schemaOf(p.getActualTypeArguments()[1],
                        false));
            }
            return F.objectNode();
        }
        Class<?> c = (Class<?>) t;
        if (c == int.class || c == long.class || c == short.class) {
            return F.objectNode().put("type", "integer");
        }
        if (c == double.class || c == float.class) {
            return F.objectNode().put("type", "number");
        }
        if (c == boolean.class) {
            return F.objectNode().put("type", "boolean");
        }
        if (c == Integer.class || c == Long.class) {
            return typed("integer", nullable);
        }
        if (c == Double.class || c == Float.class) {
            return typed("number", nullable);
        }
        if (c == Boolean.class) {
            return typed("boolean", nullable);
        }
        if (c == String.class || c.isEnum()) {
            return typed("string", nullable);
        }
        if (c == Instant.class) {
            return typed("string", nullable).put("format", "date-time");
        }
        if (c.isRecord()) {
            ObjectNode ref = ref(c);
            if (!nullable) {
                return ref;
            }
            ObjectNode any = F.objectNode();
            any.putArray("anyOf").add(ref).add(F.objectNode().put("type", "null"));
            return any;
        }
        return F.objectNode();
    }

    private static ObjectNode typed(String type, boolean nullable) {
        ObjectNode s = F.objectNode();
        if (nullable) {
            s.putArray("type").add(type).add("null");
        } else {
            s.put("type", type);
        }
        return s;
    }

    static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }
}
