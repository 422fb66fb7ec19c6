package io.polyrag.mcp;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.polyrag.core.ConfigException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bearer JWTs on the networked transports, verified against an identity provider's published keys (JWKS, fetched
 * with timeouts and cached by Nimbus), with the issuer and audience checked when configured; {@code exp} is required
 * and {@code nbf} honoured (a minute of clock skew). Unsigned tokens ({@code alg: none}) and symmetric algorithms are
 * refused. Every rejection gets the same 401; the reason goes to the operator's log only.
 */
final class BearerJwt implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger(BearerJwt.class);
    private static final byte[] REJECTED = "{\"error\": \"unauthorized\", \"message\": \"a valid bearer token is required\"}"
            .getBytes(StandardCharsets.UTF_8);
    private final ConfigurableJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

    BearerJwt(String jwksUrl, String issuer, String audience) {
        // An identity provider signs tokens for every application it serves: without the audience, a token made for
        // any other of them would act with this adapter's API key (the MCP authorization spec requires the check).
        if (audience == null || audience.isBlank()) {
            throw new ConfigException("POLYRAG_MCP_JWT_AUDIENCE is not set but POLYRAG_MCP_JWT_JWKS_URL is: without it "
                    + "a token the identity provider signed for any other application would be let in; set it to the "
                    + "audience (aud) your provider puts in tokens for this MCP server");
        }
        JWKSource<SecurityContext> keys;
        try {
            keys = JWKSourceBuilder.<SecurityContext>create(URI.create(jwksUrl).toURL(),
                    new DefaultResourceRetriever(5000, 5000, 512 * 1024)).retrying(false).build();
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new ConfigException("POLYRAG_MCP_JWT_JWKS_URL is not a URL: '" + jwksUrl + "'");
        }
        Set<JWSAlgorithm> algorithms = new HashSet<>();
        algorithms.addAll(JWSAlgorithm.Family.RSA);
        // Not EdDSA: Nimbus verifies RSA and EC keys from a key set, and every Ed25519 token was a 401 ("no matching
        // key") while the algorithm was listed as accepted.
        algorithms.addAll(JWSAlgorithm.Family.EC);
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, keys));
        // RFC 9068 access tokens are typed at+jwt; Nimbus accepts only JWT (or none) unless told.
        // Both spellings RFC 9068 §4 has resource servers accept.
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT,
                new JOSEObjectType("at+jwt"), new JOSEObjectType("application/at+jwt"), null));
        JWTClaimsSet.Builder exact = new JWTClaimsSet.Builder();
        if (issuer != null && !issuer.isBlank()) {
            exact.issuer(issuer.strip());
        }
        processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(audience.strip(), exact.build(),
                Set.of("exp")));
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException,
            ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        String header = request.getHeader("Authorization");
        String reason;
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            reason = "no bearer token";
        } else {
            try {
                JWTClaimsSet claims = processor.process(header.substring(7).strip(), null);
                request.setAttribute("polyrag.mcp.subject", claims.getSubject());
                chain.doFilter(req, res);
                return;
            } catch (ParseException | BadJOSEException
                    | JOSEException e) {
                reason = e.getMessage();
            } catch (RuntimeException e) {
                reason = e.toString();
            }
        }
        LOG.warn("MCP request from {} rejected: {}", request.getRemoteAddr(), reason);
        HttpServletResponse response = (HttpServletResponse) res;
        response.setStatus(401);
        response.setHeader("WWW-Authenticate", "Bearer");
        // The request body was not read: close the connection, so a client does not send its next request on a
        // connection the server is about to drop.
        response.setHeader("Connection", "close");
        response.setContentType("application/json");
        response.setContentLength(REJECTED.length);
        response.getOutputStream().write(REJECTED);
    }
}
