package io.polyrag.cli;

import io.polyrag.app.Json;
import io.polyrag.app.Polyrag;
import io.polyrag.app.Usage;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.core.InvalidInputException;
import io.polyrag.core.port.UsageStore;
import java.io.PrintWriter;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag tenants quota|usage}: each tenant's limits and what it used. */
@Command(name = "tenants", mixinStandardHelpOptions = true, description = {"Each tenant's quotas and usage.",
    "These commands open the data directory, so run them while the server is stopped; while it runs, use "
        + "/v1/admin/tenants/{tenant}/quotas and /v1/admin/usage with POLYRAG_HTTP_ADMIN_KEY."},
        subcommands = {TenantsCommand.Quota.class, TenantsCommand.UsageReport.class})
final class TenantsCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("polyrag tenants: give a subcommand: quota or usage");
        spec.commandLine().usage(spec.commandLine().getErr());
        return Main.USAGE;
    }

    /** {@code polyrag tenants quota TENANT [--documents N] ...}. */
    @Command(name = "quota", mixinStandardHelpOptions = true, description = {"Show TENANT's quotas, or set them: "
        + "each option given replaces that limit (0 removes it), the others stay.", "Enforced by the server: "
        + "searches past searches-per-minute get 429 until the minute turns, ingests while the tenant holds its "
        + "documents or megabytes get 413, extraction spends at most what is left of the day's tokens."})
    static final class Quota implements Callable<Integer> {
        @ParentCommand
        TenantsCommand tenants;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "TENANT", description = "The tenant: 1-40 of a-z, 0-9, '_', '-'.")
        String tenant;

        @Option(names = "--documents", paramLabel = "N", description = "Most visible documents.")
        Long documents;

        @Option(names = "--stored-mb", paramLabel = "MB", description = "Most megabytes of originals.")
        Long storedMb;

        @Option(names = "--extraction-tokens-per-day", paramLabel = "N", description = "Most language-model tokens "
            + "entity extraction may spend in a day (UTC).")
        Long extractionTokens;

        @Option(names = "--searches-per-minute", paramLabel = "N", description = "Most searches and answers in a "
            + "minute (each replica counts its own).")
        Integer searchesPerMinute;

        @Option(names = "--clear", description = "Remove every limit.")
        boolean clear;

        @Option(names = "--json", description = "Print the quotas as one JSON object.")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            if (clear && (documents != null || storedMb != null || extractionTokens != null
                    || searchesPerMinute != null)) {
                // Cleared everything and dropped the limit given with it, exit 0.
                throw new InvalidInputException("--clear removes every quota: give it alone, or set the quotas "
                        + "without it");
            }
            try (Polyrag.KeyAdmin polyrag = Polyrag.openKeys(tenants.parent.configIndexed())) {
                Usage usage = polyrag.usage();
                String id = Usage.idOf(tenant, polyrag.keys().localOwner());
                UsageStore.Quotas q = usage.quotas(id);
                if (clear) {
                    q = usage.setQuotas(id, UsageStore.Quotas.NONE);
                } else if (documents != null || storedMb != null || extractionTokens != null
                        || searchesPerMinute != null) {
                    q = usage.setQuotas(id, new UsageStore.Quotas(pick(documents, q.documents()),
                            pick(storedMb, q.storedMb()), pick(extractionTokens, q.extractionTokensPerDay()),
                            searchesPerMinute == null ? q.searchesPerMinute()
                                    : searchesPerMinute == 0 ? null : searchesPerMinute));
                }
                if (json) {
                    out.println(Json.MAPPER.writeValueAsString(AdminWire.quotas(q)));
                } else if (q.none()) {
                    out.println(tenant + ": no quotas");
                } else {
                    out.println(tenant + ": documents " + show(q.documents()) + ", stored MB " + show(q.storedMb())
                            + ", extraction tokens a day " + show(q.extractionTokensPerDay()) + ", searches a minute "
                            + show(q.searchesPerMinute() == null ? null : (long) q.searchesPerMinute()));
                }
                return Main.OK;
            }
        }

        private static Long pick(Long given, Long current) {
            return given == null ? current : given == 0 ? null : given;
        }

        private static String show(Long v) {
            return v == null ? "no limit" : String.format(Locale.ROOT, "%,d", v);
        }
    }

    /** {@code polyrag tenants usage [--from DAY] [--to DAY]}. */
    @Command(name = "usage", mixinStandardHelpOptions = true, description = {"What each tenant holds and used: "
        + "searches, answers, documents indexed, chunks embedded, model tokens by model.",
        "Counts a running server made in its last 10 seconds are written when it next flushes or stops."})
    static final class UsageReport implements Callable<Integer> {
        @ParentCommand
        TenantsCommand tenants;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--from", paramLabel = "YYYY-MM-DD", description = "First day counted (UTC); default: the "
            + "first of this month.")
        LocalDate from;

        @Option(names = "--to", paramLabel = "YYYY-MM-DD", description = "Last day counted (UTC); default: today.")
        LocalDate to;

        @Option(names = "--json", description = "Print one JSON object: {\"tenants\": [...]}, as /v1/admin/usage.")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            LocalDate today = LocalDate.now(ZoneOffset.UTC);
            LocalDate last = to == null ? today : to;
            LocalDate first = from == null ? last.withDayOfMonth(1) : from;
            try (Polyrag.KeyAdmin polyrag = Polyrag.openKeys(tenants.parent.configIndexed())) {
                var reports = polyrag.usage().reports(first, last, polyrag.keys().localOwner());
                if (json) {
                    out.println(Json.MAPPER.writeValueAsString(new AdminWire.UsageReports(reports.stream()
                            .map(AdminWire::usage).toList())));
                    return Main.OK;
                }
                out.printf("usage from %s to %s (UTC)%n", first, last);
                for (Usage.Report r : reports) {
                    out.printf(Locale.ROOT, "%s: %,d documents, %,d chunks, %,d MB stored%n",
                            r.tenant().isEmpty() ? "(local)" : r.tenant(), r.stock().documents(), r.stock().chunks(),
                            r.stock().storedBytes() >> 20);
                    r.counts().forEach(c -> out.printf(Locale.ROOT, "  %-18s %,14d%s%n", c.metric(),
                            c.amount(), c.model().isEmpty() ? "" : "  " + c.model()));
                }
                return Main.OK;
            }
        }
    }
}
