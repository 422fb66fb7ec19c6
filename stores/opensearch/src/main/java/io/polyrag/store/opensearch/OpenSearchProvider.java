package io.polyrag.store.opensearch;

import io.polyrag.core.ConfigException;
import io.polyrag.core.config.Config;
import io.polyrag.core.config.Settings;
import io.polyrag.core.port.FullTextStore;
import io.polyrag.core.spi.FullTextStoreProvider;
import io.polyrag.core.spi.ProviderContext;
import java.io.IOException;
import java.net.URI;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5Transport;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;

/** {@code POLYRAG_FULLTEXT_BACKEND=opensearch}: the full-text store on the cluster at POLYRAG_OPENSEARCH_URL. */
public final class OpenSearchProvider implements FullTextStoreProvider {
    @Override
    public String name() {
        return "opensearch";
    }

    @Override
    public String description() {
        return "OpenSearch (BM25, English analysis) at POLYRAG_OPENSEARCH_URL";
    }

    @Override
    public FullTextStore open(ProviderContext context) {
        Config c = context.config();
        String url = c.get(Settings.OPENSEARCH_URL).strip();
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri != null && uri.getRawUserInfo() != null) {
            // Never echoed: the password would be in the message and the log. The client sent no credentials
            // from the URL, so it was a 401 naming the URL, password and all.
            throw new ConfigException(Settings.OPENSEARCH_URL.env() + " holds a user and password: give them as "
                    + Settings.OPENSEARCH_USER.env() + " and " + Settings.OPENSEARCH_PASSWORD.env() + ", and the URL "
                    + "without them (e.g. https://search:9200)");
        }
        if (uri == null || uri.getHost() == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
            throw new ConfigException(Settings.OPENSEARCH_URL.env() + " must be the cluster's http(s) URL, e.g. "
                    + "https://search:9200, was '" + url + "'");
        }
        // A cluster behind a gateway at a path (https://gw/opensearch): requests went to the root.
        String prefix = uri.getRawPath() == null || uri.getRawPath().equals("/") ? "" : uri.getRawPath()
                .replaceAll("/+$", "");
        String index = c.get(Settings.OPENSEARCH_INDEX).strip();
        if (!index.matches("[a-z0-9][a-z0-9._-]{0,200}")) {
            throw new ConfigException(Settings.OPENSEARCH_INDEX.env() + " must be a lower-case index name, was '"
                    + index + "'");
        }
        HttpHost host = new HttpHost(uri.getScheme(), uri.getHost(), uri.getPort() > 0 ? uri.getPort()
                : uri.getScheme().equals("https") ? 443 : 9200);
        String user = c.get(Settings.OPENSEARCH_USER);
        String password = c.get(Settings.OPENSEARCH_PASSWORD);
        int timeout = c.get(Settings.OPENSEARCH_TIMEOUT_SECONDS);
        ApacheHttpClient5TransportBuilder builder = ApacheHttpClient5TransportBuilder.builder(host);
        if (!prefix.isEmpty()) {
            builder.setPathPrefix(prefix);
        }
        ApacheHttpClient5Transport transport = builder
                .setMapper(new JacksonJsonpMapper())
                .setRequestConfigCallback(r -> r.setResponseTimeout(Timeout.ofSeconds(timeout))
                        .setConnectionRequestTimeout(Timeout.ofSeconds(timeout)))
                .setHttpClientConfigCallback(h -> {
                    if (!user.isEmpty()) {
                        BasicCredentialsProvider creds = new BasicCredentialsProvider();
                        creds.setCredentials(new AuthScope(host), new UsernamePasswordCredentials(user,
                                password.toCharArray()));
                        h.setDefaultCredentialsProvider(creds);
                    }
                    return h;
                }).build();
        try {
            return new OpenSearchFullTextStore(new OpenSearchClient(transport), transport, url, index,
                    c.get(Settings.BM25_K1), c.get(Settings.BM25_B));
        } catch (RuntimeException e) {
            try {
                transport.close();
            } catch (IOException x) {
                e.addSuppressed(x);
            }
            throw e;
        }
    }

}
