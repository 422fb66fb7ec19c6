package io.polyrag.cli;

import io.polyrag.app.Json;
import io.polyrag.app.Keys;
import io.polyrag.app.Polyrag;
import io.polyrag.app.wire.AdminWire;
import io.polyrag.core.model.ApiKey;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code polyrag keys create|list|revoke}: API keys, each acting for one tenant. */
@Command(name = "keys", mixinStandardHelpOptions = true, description = {"API keys, each acting for exactly one tenant.",
    "As soon as one key exists, every /v1 route of 'polyrag serve' needs one (Authorization: Bearer KEY or "
        + "X-Api-Key); with none, the server runs in local mode, on a loopback address only.",
    "These commands open the data directory, so run them while the server is stopped; while it runs, use "
        + "/v1/admin/keys with POLYRAG_HTTP_ADMIN_KEY."},
        subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
final class KeysCommand implements Callable<Integer> {
    @ParentCommand
    PolyragCommand parent;

    @Spec
    CommandLine.Model.CommandSpec spec;

    /** No subcommand: say which there are, and exit as for any usage error. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("polyrag keys: give a subcommand: create, list or revoke");
        spec.commandLine().usage(spec.commandLine().getErr());
        return Main.USAGE;
    }

    /** {@code polyrag keys create TENANT}. */
    @Command(name = "create", mixinStandardHelpOptions = true, description = {"Create a key for TENANT and print it "
        + "once: it cannot be shown again.", "The key alone is the last line of standard output; with --json, one "
        + "object with key, id and tenant."})
    static final class Create implements Callable<Integer> {
        @ParentCommand
        KeysCommand keys;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "TENANT", description = "The tenant the key acts for: 1-40 of a-z, 0-9, '_', '-'.")
        String tenant;

        @Option(names = "--name", paramLabel = "NAME", description = "What the key is for (shown by 'keys list').")
        String name;

        @Option(names = "--adopt-local", description = {"Make local mode's data TENANT's: what was indexed with no "
            + "key (knowledge bases, documents, jobs, sources, graph), and what the command line and 'serve --watch' "
            + "index later. One tenant at most, with no data of its own."})
        boolean adoptLocal;

        @Option(names = "--json", description = "Print one JSON object: key, id, tenant, name, created_at, "
            + "local_owner, warnings.")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try (Polyrag.KeyAdmin polyrag = Polyrag.openKeys(keys.parent.config(Map.of()))) {
                Keys.Created k = polyrag.keys().create(tenant, name, adoptLocal);
                if (json) {
                    out.println(Json.MAPPER.writeValueAsString(AdminWire.created(k)));
                } else {
                    if (k.localOwner()) {
                        err.println("tenant " + k.info().tenant() + " holds local mode's data ("
                                + polyrag.keys().localData() + "): its keys read and write it, and so do the command "
                                + "line and 'serve --watch'");
                    }
                    k.warnings().forEach(w -> err.println("warning: " + w));
                    err.println("created key " + k.info().id() + " for tenant " + k.info().tenant()
                            + "; it is shown once, here:");
                    out.println(k.key());
                }
                return Main.OK;
            }
        }
    }

    /** {@code polyrag keys list}. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List keys (never the keys themselves).")
    static final class ListKeys implements Callable<Integer> {
        @ParentCommand
        KeysCommand keys;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--json", description = "Print one JSON object: {\"keys\": [...]}.")
        boolean json;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (Polyrag.KeyAdmin polyrag = Polyrag.openKeys(keys.parent.configIndexed())) {
                List<ApiKey> all = polyrag.keys().list();
                Optional<String> owner = polyrag.keys().localOwner();
                if (json) {
                    out.println(Json.MAPPER.writeValueAsString(AdminWire.keys(all, owner)));
                } else {
                    for (ApiKey k : all) {
                        out.printf("%s  %-20s %-8s %s%s%n", k.id(), k.tenant(), k.active() ? "active" : "revoked",
                                k.createdAt(), k.name().isEmpty() ? "" : "  " + k.name());
                    }
                    if (all.stream().noneMatch(ApiKey::active)) {
                        // POLYRAG_HTTP_REQUIRE_KEYS: no local mode, whatever address the server binds.
                        out.println(polyrag.keys().required() ? "no active key: POLYRAG_HTTP_REQUIRE_KEYS is on, so "
                                + "the server answers 401 until one exists: 'polyrag keys create TENANT' (server "
                                + "stopped), or POST /v1/admin/keys with POLYRAG_HTTP_ADMIN_KEY"
                                : "no active key: the server runs in local mode (loopback only)");
                    }
                    if (all.isEmpty()) {
                        return Main.OK;
                    }
                    out.println(owner.map(o -> "local mode's data belongs to tenant " + o).orElse("local mode's data "
                            + "(" + polyrag.keys().localData() + ") belongs to no tenant: 'keys create TENANT "
                            + "--adopt-local' gives it to one"));
                }
                return Main.OK;
            }
        }
    }

    /** {@code polyrag keys revoke ID}. */
    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a key: requests with it get 401 "
        + "from then on.")
    static final class Revoke implements Callable<Integer> {
        @ParentCommand
        KeysCommand keys;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "ID", description = "The key's id, as 'keys list' shows it.")
        String id;

        @Override
        public Integer call() {
            try (Polyrag.KeyAdmin polyrag = Polyrag.openKeys(keys.parent.configIndexed())) {
                polyrag.keys().revoke(id);
                spec.commandLine().getOut().println("revoked key " + id);
                return Main.OK;
            }
        }
    }
}
