package io.polyrag.model.onnx;

import io.polyrag.core.config.Config;
import java.io.IOException;
import java.net.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Loads the embedding model in a fresh JVM and prints every http(s) address something tried to open, one per line,
 * then "done". Run by {@link NoNetworkTest}.
 */
public final class NoNetworkChild {
    private NoNetworkChild() {
    }

    public static void main(String[] args) throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        // Every http(s) URL made from now on is this handler's: it records the address and refuses to connect.
        java.net.URL.setURLStreamHandlerFactory(protocol -> !protocol.equals("http") && !protocol.equals("https")
                ? null : new java.net.URLStreamHandler() {
                    @Override
                    protected java.net.URLConnection openConnection(java.net.URL u) throws IOException {
                        asked.add(u.toString());
                        throw new IOException("no network in this test");
                    }

                    @Override
                    protected java.net.URLConnection openConnection(java.net.URL u, Proxy p) throws IOException {
                        return openConnection(u);
                    }
                });
        var embedder = OnnxEmbedderProvider.open(Config.defaults(Map.of()));
        embedder.embedQuery("does loading the model call anyone?");
        Thread.sleep(1500); // a library calling home from a thread of its own has had time to
        embedder.close();
        asked.forEach(System.out::println);
        System.out.println("done");
    }
}
