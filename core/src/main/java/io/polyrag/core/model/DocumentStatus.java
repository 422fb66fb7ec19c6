package io.polyrag.core.model;

import io.polyrag.core.InvalidInputException;
import java.util.Locale;
import java.util.Set;

/**
 * Where a document stands: {@code INDEXING} while its first version is being written (search does not see it yet),
 * {@code INDEXED} once a version is visible and nothing is pending, {@code UPDATING} while a new version is being
 * written over a visible one (search sees the old one until the new one is published).
 */
public enum DocumentStatus {
    INDEXING, INDEXED, UPDATING;

    /** The statuses search can see: a visible version exists. */
    public static final Set<DocumentStatus> VISIBLE = Set.of(INDEXED, UPDATING);

    /** Its name on the wire and in filters: lower case. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status with this wire name; fails naming the choices. */
    public static DocumentStatus parse(String s) {
        for (DocumentStatus d : values()) {
            if (d.wireName().equals(s == null ? null : s.strip().toLowerCase(Locale.ROOT))) {
                return d;
            }
        }
        throw new InvalidInputException("status must be indexing, indexed or updating, was '"
                + Ids.abbreviate(String.valueOf(s), 20) + "'");
    }
}
