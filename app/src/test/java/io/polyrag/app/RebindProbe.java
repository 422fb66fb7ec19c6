package io.polyrag.app;

import io.polyrag.core.http.Outbound;
import io.polyrag.core.http.PublicOnlyResolver;
import io.polyrag.core.http.OutboundException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Run by {@link WebSyncTest} in a fresh JVM (nothing resolved or cached yet): the machine's own host name, which
 * resolves to a loopback or private address, stands for a name that a rebinding DNS server answers with a private
 * address at fetch time. Guarded as a web source's host, it fails at the HTTP client's own lookup; the server by its
 * address literal (not guarded) answers. ({@code localhost} would not do: the JDK answers it without any resolver.)
 * Prints one line per target.
 */
public final class RebindProbe {
    private RebindProbe() {
    }

    public static void main(String[] args) throws java.io.IOException {
        int port = Integer.parseInt(args[0]);
        java.nio.file.Path hostname = java.nio.file.Path.of("/etc/hostname");
        String name = java.nio.file.Files.isReadable(hostname) ? java.nio.file.Files.readString(hostname).strip() : "";
        if (name.isEmpty()) {
            System.out.println("skip: this machine has no /etc/hostname");
            return;
        }
        Outbound http = new Outbound("web", Duration.ofSeconds(5), Duration.ofSeconds(5), 0, d -> { });
        PublicOnlyResolver.guard(name);
        for (String host : new String[] {"127.0.0.1", name}) {
            try {
                System.out.println(host + " " + http.get(URI.create("http://" + host + ":" + port + "/"), Map.of(), 1024)
                        .status());
            } catch (OutboundException e) {
                if (!host.equals("127.0.0.1") && PublicOnlyResolver.refused(host) == null) {
                    System.out.println("skip: " + host + " does not resolve to a private address here (" + e.getMessage()
                            + ")");
                    return;
                }
                System.out.println(host + " refused: " + PublicOnlyResolver.refused(host) + " / " + e.getMessage());
            }
        }
        System.out.println("refusal: " + PublicOnlyResolver.refusal(name, false, "web sources", "POLYRAG_SYNC_WEB_ALLOW_PRIVATE"));
    }
}
