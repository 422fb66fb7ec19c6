package io.polyrag.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.polyrag.core.model.Tenant;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With POLYRAG_METRICS_TENANT_LABEL on, local mode's usage and a tenant named "local" are two series: local mode's
 * was labelled "local", and the two tenants' counts were summed in one.
 */
class TenantUsageLabelTest {
    @TempDir
    Path tmp;

    @Test
    void local_modes_usage_is_not_the_tenant_called_local() {
        try (Polyrag p = Polyrag.open(PolyragTest.config(tmp.resolve("data"), Map.of("vector.enabled", "false",
                "metrics.tenant.label", "true")))) {
            p.as(Tenant.LOCAL).search().run(p.search().request("owls").build());
            p.as(Tenant.of("local")).search().run(p.search().request("owls").build());
            p.as(Tenant.of("local")).search().run(p.search().request("owls").build());
            String scraped = p.metrics().scrape();
            assertThat(scraped).contains("polyrag_tenant_usage_total{metric=\"searches\",tenant=\"-\"} 1.0")
                    .contains("polyrag_tenant_usage_total{metric=\"searches\",tenant=\"local\"} 2.0");
        }
    }
}
