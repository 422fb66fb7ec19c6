package io.polyrag.app;

import io.polyrag.core.InvalidInputException;
import java.io.InputStream;
import java.io.Reader;
import java.lang.System.Logger.Level;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.InvalidNullException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * The API's JSON: strict on input (an unknown field, a wrong type, a duplicate key or trailing garbage is a 400 that
 * names the field and what it should be; no value is coerced: {@code "3"} is not an integer, {@code 2.5} is not 2,
 * {@code 42} is not a string), enums written as their wire names.
 */
public final class Json {
    public static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .enable(EnumFeature.WRITE_ENUMS_USING_TO_STRING)
            .build();

    /**
     * What the catalog keeps as JSON (a knowledge base's tuning, its last evaluation), read leniently: it may have
     * been written by a later release (a rolling upgrade, a rollback), whose fields this one skips.
     */
    public static final JsonMapper STORED = MAPPER.rebuild().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final System.Logger LOG = System.getLogger(Json.class.getName());

    /**
     * Reads what the catalog keeps ({@link #STORED}); a value that cannot be read at all is logged and taken as
     * absent, so that one damaged row does not fail every request that consults it.
     */
    public static <T> Optional<T> stored(String json, Class<T> type, String whose) {
        try {
            return Optional.ofNullable(STORED.readValue(json, type));
        } catch (JacksonException e) {
            LOG.log(Level.WARNING, "a stored " + type.getSimpleName() + " of '" + whose + "' cannot be read and is "
                    + "ignored: " + e.getOriginalMessage());
            return Optional.empty();
        }
    }

    private static final Pattern DUPLICATE = Pattern.compile(
            "Duplicate (?:Object property|field) \"([^\"]*)\"");

    private Json() {
    }

    /** Reads a request body, turning every parse failure into a 400 whose message says what to fix. */
    public static <T> T read(String body, Class<T> type) {
        if (body == null || body.isBlank()) {
            throw new InvalidInputException("request body is empty: send a JSON object");
        }
        return read(() -> MAPPER.readValue(body, type));
    }

    /**
     * Like {@link #read(String, Class)}, straight from a stream: a large body (a text ingest) is not first held as
     * bytes, decoded as characters and copied into a string, three copies of up to the request limit before the
     * parser ran. Bytes that are not UTF-8 are malformed JSON.
     */
    public static <T> T read(InputStream body, Class<T> type) {
        return read(() -> MAPPER.readValue(body, type));
    }

    /** Like {@link #read(InputStream, Class)}, from characters the caller decodes. */
    public static <T> T read(Reader body, Class<T> type) {
        return read(() -> MAPPER.readValue(body, type));
    }

    private static <T> T read(Supplier<T> parse) {
        try {
            T value = parse.get();
            if (value == null) {
                throw new InvalidInputException("request body is null: send a JSON object");
            }
            return value;
        } catch (UnrecognizedPropertyException e) {
            Collection<Object> known = e.getKnownPropertyIds();
            throw new InvalidInputException("unknown field '" + e.getPropertyName() + "'"
                    + (known == null ? "" : "; known fields: " + known.stream().map(String::valueOf).sorted()
                            .collect(Collectors.joining(", "))));
        } catch (InvalidNullException e) {
            throw new InvalidInputException("field '" + path(e) + "' is null: give a value, or leave the item out");
        } catch (MismatchedInputException e) {
            String field = path(e);
            throw new InvalidInputException(field.isEmpty() ? "request body must be a JSON object"
                    : "field '" + field + "' has the wrong type: expected " + simpleType(e)
                            + (e instanceof InvalidFormatException f ? ", got " + f.getValue() : ""));
        } catch (InputCoercionException e) {
            // Well-formed JSON whose number does not fit the field: "malformed JSON" named neither.
            String field = path(e);
            throw new InvalidInputException((field.isEmpty() ? "a number" : "field '" + field + "'")
                    + " is out of range: " + e.getOriginalMessage());
        } catch (StreamReadException e) {
            String m = String.valueOf(e.getOriginalMessage());
            Matcher dup = DUPLICATE.matcher(m);
            if (dup.find()) {
                throw new InvalidInputException("field '" + dup.group(1) + "' appears twice: send each field once");
            }
            throw new InvalidInputException("malformed JSON: " + m);
        } catch (JacksonException e) {
            throw new InvalidInputException("cannot read the request body: " + e.getOriginalMessage());
        }
    }

    private static String path(JacksonException e) {
        return e.getPath().stream().map(r -> r.getPropertyName() != null ? r.getPropertyName()
                : "[" + r.getIndex() + "]").collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String simpleType(MismatchedInputException e) {
        Class<?> t = e.getTargetType();
        if (t == null) {
            return "another type";
        }
        if (t == Integer.class || t == int.class) {
            return "an integer";
        }
        if (Collection.class.isAssignableFrom(t)) {
            return "an array";
        }
        if (t == String.class) {
            return "a string";
        }
        if (t == Boolean.class || t == boolean.class) {
            return "true or false";
        }
        if (Map.class.isAssignableFrom(t) || t.isRecord()) {
            return "an object";
        }
        if (Number.class.isAssignableFrom(t) || t.isPrimitive()) {
            return "a number";
        }
        return "a " + t.getSimpleName();
    }
}
