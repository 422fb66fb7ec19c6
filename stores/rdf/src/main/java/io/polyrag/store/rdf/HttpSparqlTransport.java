package io.polyrag.store.rdf;

import io.polyrag.core.ConfigException;
import io.polyrag.core.StoreException;
import io.polyrag.core.UnavailableException;
import io.polyrag.core.config.Settings;
import java.net.Authenticator;
import java.net.PasswordAuthentication;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.jena.query.QueryCancelledException;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.sparql.exec.http.QueryExecutionHTTP;
import org.apache.jena.sparql.exec.http.UpdateExecutionHTTP;
import org.apache.jena.atlas.web.HttpException;
import org.apache.jena.sparql.engine.http.QueryExceptionHTTP;

/**
 * SPARQL 1.1 over HTTP to any endpoint (Fuseki, GraphDB, Virtuoso, …): the query and update URLs, optional basic
 * authentication, a timeout on every request. Each update request is one HTTP call, which the protocol applies as a
 * unit.
 */
final class HttpSparqlTransport implements SparqlTransport {
    private final String queryUrl;
    private final String updateUrl;
    private final HttpClient client;
    private final long timeoutSeconds;

    HttpSparqlTransport(String queryUrl, String updateUrl, String user, String password, long timeoutSeconds) {
        this.queryUrl = queryUrl;
        this.updateUrl = updateUrl;
        this.timeoutSeconds = timeoutSeconds;
        // Redirects are not followed: the JDK resends a POST redirected by 301 or 302 as a GET without its body, so
        // an update (an http:// address a proxy sends to https://) reached the endpoint empty and was taken as done.
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(timeoutSeconds))
                .followRedirects(HttpClient.Redirect.NEVER);
        if (user != null && !user.isBlank()) {
            char[] secret = password == null ? new char[0] : password.toCharArray();
            b.authenticator(new Authenticator() {
                @Override
                protected PasswordAuthentication getPasswordAuthentication() {
                    return new PasswordAuthentication(user, secret);
                }
            });
        }
        this.client = b.build();
    }

    @Override
    public List<Map<String, String>> select(String query) {
        try (QueryExecution qe = QueryExecutionHTTP.service(queryUrl).httpClient(client).query(query)
                .timeout(timeoutSeconds, TimeUnit.SECONDS).build()) {
            return Rows.of(qe.execSelect());
        } catch (RuntimeException e) {
            throw failure("query", queryUrl, e, timeoutSeconds);
        }
    }

    @Override
    public void update(String request) {
        try {
            // Bounded like a query: a write that never got its answer held the store's write lock for good.
            UpdateExecutionHTTP.service(updateUrl).httpClient(client).update(request)
                    .timeout(timeoutSeconds, TimeUnit.SECONDS).build().execute();
        } catch (RuntimeException e) {
            throw failure("update", updateUrl, e, timeoutSeconds);
        }
    }

    /**
     * A clear error from whatever Jena raised: the HTTP status and the server's message where there is one. Only an
     * endpoint that cannot be reached (no connection, 502-504) is unavailable, so a job waits for it and resumes; a
     * request it took and did not answer in time, or a 500, fails the same way every time (a book's update of
     * 300,000 triples), and a job waiting for it resent it for good.
     */
    private static RuntimeException failure(String what, String url, RuntimeException raised, long timeoutSeconds) {
        int status = -1;
        String detail = raised.getMessage();
        for (Throwable t = raised; t != null; t = t.getCause()) {
            if (t instanceof QueryExceptionHTTP q && q.getStatusCode() > 0) {
                status = q.getStatusCode();
                detail = q.getResponseMessage();
                break;
            }
            if (t instanceof HttpException h && h.getStatusCode() > 0) {
                status = h.getStatusCode();
                detail = h.getResponse() == null ? h.getStatusLine() : h.getResponse().strip();
                break;
            }
        }
        if (status < 0 && answeredLate(raised)) {
            return new StoreException("SPARQL endpoint " + url + " did not answer the " + what + " within "
                    + timeoutSeconds + " s (" + Settings.RDF_SPARQL_TIMEOUT_SECONDS.env() + ")", raised);
        }
        if (status < 0) {
            return new UnavailableException("SPARQL endpoint " + url + " cannot be reached for " + what + ": "
                    + detail, raised);
        }
        if (status >= 502 && status <= 504) {
            return new UnavailableException("SPARQL endpoint " + url + " is not available for the " + what
                    + " (HTTP " + status + "): " + detail, raised);
        }
        if (status >= 500) {
            return new StoreException("SPARQL endpoint " + url + " failed the " + what + " (HTTP " + status + "): "
                    + detail, raised);
        }
        if (status >= 300 && status < 400) {
            return new ConfigException("SPARQL endpoint " + url + " answered the " + what + " with a redirect (HTTP "
                    + status + "): set " + (what.equals("update") ? Settings.RDF_SPARQL_UPDATE_URL.env()
                    : Settings.RDF_SPARQL_QUERY_URL.env()) + " to the address it redirects to (https://?); a "
                    + "redirected request is not followed, as a write would lose its body", raised);
        }
        if (status == 401 || status == 403) {
            return new StoreException("SPARQL endpoint " + url + " refused the " + what + " (HTTP " + status
                    + "): check POLYRAG_RDF_SPARQL_USER and POLYRAG_RDF_SPARQL_PASSWORD", raised);
        }
        return new StoreException("SPARQL endpoint " + url + " rejected the " + what + " (HTTP " + status + "): "
                + detail, raised);
    }

    /** Whether the endpoint took the request and its answer did not come in time (not a connection that failed). */
    private static boolean answeredLate(Throwable raised) {
        for (Throwable t = raised; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpTimeoutException && !(t instanceof HttpConnectTimeoutException)
                    || t instanceof QueryCancelledException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String describe() {
        return "SPARQL endpoint " + queryUrl;
    }

    @Override
    public void close() {
        client.close();
    }
}
