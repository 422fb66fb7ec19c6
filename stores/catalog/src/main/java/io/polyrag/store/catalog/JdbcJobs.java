package io.polyrag.store.catalog;

import io.polyrag.core.port.JobStore;
import io.polyrag.core.model.ItemError;
import io.polyrag.core.model.JobInfo;
import io.polyrag.core.model.JobProgress;
import io.polyrag.core.model.JobStatus;
import io.polyrag.core.port.JobStore.Claimed;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/** Job rows: submit, claim with {@code FOR UPDATE SKIP LOCKED}, progress (the heartbeat), finish. */
final class JdbcJobs implements JobStore {
    private static final char FIELD = '\u001f';
    private static final char RECORD = '\u001e';

    private final Jdbc jdbc;

    JdbcJobs(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public String submit(String tenant, String kind, String payload, String knowledgeBase, String source,
            long stagedBytes) {
        String id = UUID.randomUUID().toString();
        jdbc.tx("submit a job", c -> JdbcCatalog.update(c,
                "INSERT INTO jobs (id, tenant, kind, status, payload, stage, created_at, updated_at, kb, source, "
                + "staged_bytes) VALUES (?, ?, ?, 'queued', ?, 'queued', ?, ?, ?, ?, ?)", id, tenant,
                kind, payload, jdbc.now(), jdbc.now(), knowledgeBase, source, stagedBytes));
        return id;
    }

    @Override
    public Pending pending(String tenant) {
        return jdbc.tx("count a tenant's waiting jobs", c -> {
            // A job's files become documents as it goes (counted as stored then): the share of its bytes it has
            // not reached yet, queued or running (a running job's counted nowhere, and a second upload as large was
            // accepted; a yielded one's counted whole besides what it had published, and every upload refused).
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), COALESCE(SUM(CASE WHEN total > 0 THEN "
                    + "staged_bytes * GREATEST(total - processed, 0) / total ELSE staged_bytes END), 0) FROM jobs "
                    + "WHERE tenant = ? AND status IN ('queued', 'running')")) {
                ps.setString(1, tenant);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new Pending(rs.getInt(1), rs.getLong(2));
                }
            }
        });
    }

    @Override
    public Queued submitForSource(String tenant, String kind, String payload, String knowledgeBase, String source) {
        return jdbc.tx("submit a sync job", c -> {
            // The source's row serialises submitters (a missing row, a deleted source, locks nothing: its sync only
            // says so); the second waits here and then reads the first's job.
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM sources WHERE tenant = ? AND id = ? "
                    + "FOR UPDATE")) {
                ps.setString(1, tenant);
                ps.setString(2, source);
                ps.executeQuery().close();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM jobs WHERE tenant = ? AND source = ? AND "
                    + "status IN ('queued', 'running') ORDER BY created_at, id LIMIT 1")) {
                ps.setString(1, tenant);
                ps.setString(2, source);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return new Queued(rs.getString(1), false);
                    }
                }
            }
            String id = UUID.randomUUID().toString();
            JdbcCatalog.update(c, "INSERT INTO jobs (id, tenant, kind, status, payload, stage, created_at, updated_at, "
                    + "kb, source) VALUES (?, ?, ?, 'queued', ?, 'queued', ?, ?, ?, ?)", id, tenant, kind, payload,
                    jdbc.now(), jdbc.now(), knowledgeBase, source);
            return new Queued(id, true);
        });
    }

    /**
     * Claims the next job. A stale running job (its process died) comes first; then a queued job of the tenant with
     * the fewest running jobs, of those the tenant served longest ago, and that tenant's oldest job: one tenant's many
     * or long jobs do not keep another's waiting behind them. A run that ended without recording its end (a crash, a
     * kill) is charged a strike only when it made no progress past the furthest an earlier run reached; a job with
     * {@code maxAttempts} strikes is given up (failed) and returned so, for its holder to release what it held.
     */
    @Override
    public Optional<Claimed> claim(Duration staleAfter, int maxAttempts) {
        return jdbc.tx("claim a job", c -> {
            while (true) {
                Optional<String> next = staleRunning(c, staleAfter);
                if (next.isEmpty()) {
                    next = fairestQueued(c);
                }
                if (next.isEmpty()) {
                    return Optional.empty();
                }
                String id = next.get();
                int attempts;
                int strikes;
                int highWater;
                int claimWater;
                String stage;
                boolean cancel;
                try (PreparedStatement ps = c.prepareStatement("SELECT attempts, strikes, high_water, claim_water, "
                        + "stage, cancel_requested FROM jobs WHERE id = ?")) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        attempts = rs.getInt(1);
                        strikes = rs.getInt(2);
                        highWater = rs.getInt(3);
                        claimWater = rs.getInt(4);
                        stage = rs.getString(5);
                        cancel = rs.getBoolean(6);
                    }
                }
                if (cancel) {
                    // Asked to cancel while it ran and then put back (a yield, a stop): it ends, not runs another file.
                    JdbcCatalog.update(c, "UPDATE jobs SET status = 'canceled', stage = 'canceled', error = ?, "
                            + "updated_at = ? WHERE id = ?",
                            "canceled by request; what was indexed before stays indexed", jdbc.now(), id);
                    return Optional.of(new Claimed(read(c, id).orElseThrow(), payload(c, id), true));
                }
                if (attempts > 0 && highWater <= claimWater) {
                    strikes++;
                }
                if (strikes >= maxAttempts) {
                    JdbcCatalog.update(c, "UPDATE jobs SET status = 'failed', strikes = ?, error = ?, updated_at = ? "
                            + "WHERE id = ?", strikes, "gave up after " + strikes + " runs that stopped without "
                            + "finishing or getting further than the one before (last stage: " + stage + "): "
                            + "something in it stops the process each time; see the server's log", jdbc.now(), id);
                    return Optional.of(new Claimed(read(c, id).orElseThrow(), payload(c, id), true));
                }
                JdbcCatalog.update(c, "UPDATE jobs SET status = 'running', attempts = attempts + 1, strikes = ?, "
                        + "claim_water = high_water, claimed_at = ?, updated_at = ? WHERE id = ?", strikes, jdbc.now(),
                        jdbc.now(), id);
                JobInfo info = read(c, id).orElseThrow();
                return Optional.of(new Claimed(info, payload(c, id)));
            }
        });
    }

    /** The oldest running job no one has updated within the stale timeout, locked for this transaction. */
    private Optional<String> staleRunning(Connection c, Duration staleAfter) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM jobs WHERE status = 'running' AND "
                + "updated_at < ? ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED")) {
            ps.setObject(1, jdbc.now().minus(staleAfter));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /**
     * The queued job to run next, locked: tenants with queued jobs ordered by their running jobs (fewest first),
     * then by when one of their jobs was last claimed (longest ago, or never, first), then by their oldest queued
     * job; the first tenant whose oldest unlocked job can be locked gives it.
     */
    private static Optional<String> fairestQueued(Connection c) throws SQLException {
        record Waiting(String tenant, long running, Instant served, Instant oldest) {
        }
        List<Waiting> waiting = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT q.tenant, MIN(q.created_at), "
                + "(SELECT COUNT(*) FROM jobs r WHERE r.tenant = q.tenant AND r.status = 'running'), "
                + "(SELECT MAX(s.claimed_at) FROM jobs s WHERE s.tenant = q.tenant) "
                + "FROM jobs q WHERE q.status = 'queued' GROUP BY q.tenant");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                waiting.add(new Waiting(rs.getString(1), rs.getLong(3), instant(rs.getObject(4,
                        OffsetDateTime.class)), instant(rs.getObject(2, OffsetDateTime.class))));
            }
        }
        waiting.sort(Comparator.comparingLong(Waiting::running)
                .thenComparing(Waiting::served, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(Waiting::oldest));
        for (Waiting w : waiting) {
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM jobs WHERE tenant = ? AND status = 'queued' "
                    + "ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED")) {
                ps.setString(1, w.tenant());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return Optional.of(rs.getString(1));
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }

    /**
     * Puts a running job back in the queue under its claim, with no strike: its worker stopped it on purpose (to
     * let another tenant's job run, or to shut down) and it resumes where the items it finished let it.
     */
    @Override
    public boolean release(String jobId, int attempt, String stage) {
        return jdbc.tx("release a job", c -> JdbcCatalog.update(c, "UPDATE jobs SET status = 'queued', stage = ?, "
                + "claim_water = -1, updated_at = ? WHERE id = ? AND status = 'running' AND attempts = ?",
                JdbcCatalog.clip(stage, 64), jdbc.now(), jobId, attempt) > 0);
    }

    @Override
    public boolean excuse(String jobId, int attempt) {
        return jdbc.tx("excuse a job", c -> JdbcCatalog.update(c, "UPDATE jobs SET claim_water = -1 WHERE id = ? "
                + "AND status = 'running' AND attempts = ?", jobId, attempt) > 0);
    }

    /** Whether a job of a tenant other than {@code tenant}, of none of {@code exceptKinds}, waits in the queue. */
    @Override
    public boolean othersWaiting(String tenant, Collection<String> exceptKinds) {
        return jdbc.tx("look for waiting jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM jobs WHERE status = 'queued' AND tenant <> ? "
                    + "AND NOT (kind = ANY(?)) LIMIT 1")) {
                ps.setString(1, tenant);
                ps.setArray(2, c.createArrayOf("VARCHAR", exceptKinds.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    private static String payload(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT payload FROM jobs WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    @Override
    public int requeueRunning() {
        return jdbc.tx("requeue running jobs", c -> JdbcCatalog.update(c,
                "UPDATE jobs SET status = 'queued', stage = 'queued', updated_at = ? WHERE status = 'running'",
                jdbc.now()));
    }

    /**
     * Writes progress of a running job under its claim ({@code attempt}): nothing is written when the job was
     * reclaimed by another worker meanwhile, or has ended. False when the worker should stop: a cancel was asked
     * for, or the claim is lost.
     */
    @Override
    public boolean progress(String jobId, int attempt, JobProgress p) {
        return jdbc.tx("record job progress", c -> {
            if (write(c, jobId, attempt, p, "running", null) == 0) {
                return false;
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT cancel_requested FROM jobs WHERE id = ?")) {
                ps.setString(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    return !rs.next() || !rs.getBoolean(1);
                }
            }
        });
    }

    /** Marks a running job alive under its claim; false when the claim is lost. */
    @Override
    public boolean heartbeat(String jobId, int attempt) {
        return jdbc.tx("record a job heartbeat", c -> JdbcCatalog.update(c,
                "UPDATE jobs SET updated_at = ? WHERE id = ? "
                + "AND status = 'running' AND attempts = ?", jdbc.now(), jobId, attempt) > 0);
    }

    @Override
    public boolean cancelRequested(String jobId) {
        return jdbc.tx("read a job's cancel", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT cancel_requested FROM jobs WHERE id = ? AND "
                    + "status = 'running'")) {
                ps.setString(1, jobId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() && rs.getBoolean(1);
                }
            }
        });
    }

    @Override
    public boolean cancel(String jobId) {
        // A job queued again after an earlier attempt (a yield, a stop, a store away) may have indexed files already.
        return jdbc.tx("cancel a job", c -> JdbcCatalog.update(c, "UPDATE jobs SET status = 'canceled', stage = "
                + "'canceled', error = CASE WHEN attempts > 0 THEN 'canceled while queued again, after an earlier "
                + "attempt (what it indexed stays)' ELSE 'canceled before it started' END, updated_at = ? WHERE id = ? "
                + "AND status = 'queued'", jdbc.now(), jobId) > 0 || JdbcCatalog.update(c,
                        // updated_at is the worker's heartbeat: a cancel does not touch it, or a dead worker's job
                        // would look alive again at every cancel asked of it.
                        "UPDATE jobs SET cancel_requested = TRUE WHERE id = ? AND status = 'running'", jobId) > 0);
    }

    List<JobInfo> list(String tenant, int offset, int limit, String hidden) {
        return hidden == null ? jdbc.tx("list jobs", c -> jobsOf(c, "SELECT " + INFO + " FROM jobs WHERE tenant = ? ORDER BY "
                + "created_at DESC, id LIMIT ? OFFSET ?", tenant, limit, offset))
                : jdbc.tx("list jobs", c -> jobsOf(c, "SELECT " + INFO + " FROM jobs WHERE tenant = ? AND kind <> ? ORDER BY "
                        + "created_at DESC, id LIMIT ? OFFSET ?", tenant, hidden, limit, offset));
    }

    /**
     * The jobs whose rows {@code sql} selects (every column), in its order: one statement, where a read per job made
     * a page of 50 (every search's indexing note) 51 round trips.
     */
    private static List<JobInfo> jobsOf(Connection c, String sql, Object... args) throws SQLException {
        List<JobInfo> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(row(rs));
                }
            }
        }
        return out;
    }

    @Override
    public boolean finish(String jobId, int attempt, JobStatus status, JobProgress p, String error) {
        if (!status.finished()) {
            throw new IllegalArgumentException("a job finishes as succeeded, partial, failed or canceled, not "
                    + status);
        }
        return jdbc.tx("finish a job", c -> write(c, jobId, attempt, p, status.wireName(), error)) > 0;
    }

    @Override
    public Queue queue() {
        return jdbc.tx("count queued jobs", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*), MIN(updated_at) FROM jobs WHERE status "
                    + "= 'queued'"); ResultSet rs = ps.executeQuery()) {
                rs.next();
                // Read as the job rows are (timestamps with their offset): a plain Timestamp took H2's in local time.
                return new Queue(rs.getInt(1), instant(rs.getObject(2, OffsetDateTime.class)));
            }
        });
    }

    @Override
    public List<Claimed> unfinished() {
        return jdbc.tx("list unfinished jobs", c -> {
            List<Claimed> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM jobs WHERE status IN ('queued', 'running') "
                    + "ORDER BY created_at, id"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Claimed(row(rs), rs.getString("payload")));
                }
            }
            return out;
        });
    }

    /** Writes a job's state, only while it is running under the claim {@code attempt}; returns the rows written. */
    private int write(Connection c, String id, int attempt, JobProgress p, String status, String error)
            throws SQLException {
        return JdbcCatalog.update(c, "UPDATE jobs SET status = ?, stage = ?, total = ?, processed = ?, added = ?, "
                + "updated = ?, unchanged = ?, failed = ?, chunks = ?, stores = ?, errors = ?, error = ?, "
                + "relations = ?, extraction_tokens = ?, estimated_calls = ?, estimated_tokens = ?, warnings = ?, "
                + "deleted = ?, high_water = GREATEST(high_water, ?), updated_at = ? WHERE id = ? AND status = 'running' "
                + "AND attempts = ?", status, JdbcCatalog.clip(p.stage(), 64), p.total(),
                p.processed(), p.added(), p.updated(), p.unchanged(), p.failed(), p.chunks(),
                JdbcCatalog.clip(String.join(",", p.storesWritten()), 255), encode(p.errors()), error,
                p.relations(), p.extractionTokens(), p.estimatedCalls(), p.estimatedTokens(),
                String.join("\n", p.warnings()), p.deleted(), p.processed(), jdbc.now(), id, attempt);
    }

    @Override
    public List<JobInfo> changedSince(Instant since, int limit) {
        return jdbc.tx("list changed jobs", c -> jobsOf(c, "SELECT " + INFO + " FROM jobs WHERE updated_at >= ? "
                + "ORDER BY updated_at, id LIMIT ?", since.atOffset(ZoneOffset.UTC), limit));
    }

    /** Finished jobs whose last write is older than {@code cutoff}, deleted a thousand at a time. */
    @Override
    public int deleteFinishedBefore(Instant cutoff) {
        int deleted = 0;
        for (int n = DELETE_BATCH; n == DELETE_BATCH; ) {
            n = jdbc.tx("delete old finished jobs", c -> JdbcCatalog.update(c, "DELETE FROM jobs WHERE id IN (SELECT "
                    + "id FROM jobs WHERE updated_at < ? AND status IN ('succeeded', 'partial', 'failed', 'canceled') "
                    + "LIMIT " + DELETE_BATCH + ")", cutoff.atOffset(ZoneOffset.UTC)));
            deleted += n;
        }
        return deleted;
    }

    private static final int DELETE_BATCH = 1000;

    @Override
    public Optional<JobInfo> job(String jobId) {
        return jdbc.tx("read a job", c -> read(c, jobId));
    }

    private static Optional<JobInfo> read(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + INFO + " FROM jobs WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /**
     * The columns {@link #row} reads: never the payload, which a job listing, the event feed (every second) and a
     * status read do not use, and which holds a large upload's every file (megabytes a row).
     */
    private static final String INFO = "id, kind, status, stage, total, processed, added, updated, unchanged, failed, "
            + "chunks, stores, errors, error, relations, extraction_tokens, estimated_calls, estimated_tokens, "
            + "warnings, deleted, attempts, created_at, updated_at, tenant, kb, source, claimed_at";

    /** The job of the result's current row. */
    private static JobInfo row(ResultSet rs) throws SQLException {
        String stores = rs.getString("stores");
        JobProgress p = JobProgress.at(rs.getString("stage")).total(rs.getInt("total"))
                .processed(rs.getInt("processed")).added(rs.getInt("added")).updated(rs.getInt("updated"))
                .unchanged(rs.getInt("unchanged")).failed(rs.getInt("failed"))
                .chunks(rs.getInt("chunks"))
                .storesWritten(stores.isEmpty() ? List.of() : Arrays.asList(stores.split(",")))
                .errors(decode(rs.getString("errors"))).relations(rs.getInt("relations"))
                .extractionTokens(rs.getLong("extraction_tokens"))
                .estimatedCalls(rs.getLong("estimated_calls"))
                .estimatedTokens(rs.getLong("estimated_tokens"))
                .warnings(rs.getString("warnings").isEmpty() ? List.of() : List.of(rs.getString("warnings")
                        .split("\n")))
                .deleted(rs.getInt("deleted")).build();
        return new JobInfo(rs.getString("id"), rs.getString("kind"),
                JobStatus.valueOf(rs.getString("status").toUpperCase(Locale.ROOT)), p, rs.getString("error"),
                rs.getInt("attempts"), JdbcCatalog.instant(rs, "created_at"),
                JdbcCatalog.instant(rs, "updated_at"), rs.getString("tenant"), rs.getString("kb"),
                rs.getString("source"), JdbcCatalog.instant(rs, "claimed_at"));
    }

    private static String encode(List<ItemError> errors) {
        StringBuilder sb = new StringBuilder();
        for (ItemError e : errors) {
            if (!sb.isEmpty()) {
                sb.append(RECORD);
            }
            sb.append(clean(e.source())).append(FIELD).append(clean(e.reason()));
        }
        return sb.toString();
    }

    private static List<ItemError> decode(String s) {
        List<ItemError> out = new ArrayList<>();
        if (s == null || s.isEmpty()) {
            return out;
        }
        for (String rec : s.split(String.valueOf(RECORD))) {
            int i = rec.indexOf(FIELD);
            out.add(new ItemError(rec.substring(0, i), rec.substring(i + 1)));
        }
        return out;
    }

    private static String clean(String s) {
        return s.replace(FIELD, ' ').replace(RECORD, ' ');
    }

    @Override
    public List<JobInfo> jobs(String tenant, int offset, int limit, String hidden) {
        return list(tenant, offset, limit, hidden);
    }

    @Override
    public List<JobInfo> unfinished(String tenant, int limit) {
        return jdbc.tx("list unfinished jobs", c -> jobsOf(c, "SELECT " + INFO + " FROM jobs WHERE tenant = ? AND "
                + "status IN ('queued', 'running') ORDER BY created_at, id LIMIT ?", tenant, limit));
    }
}
