package io.polyrag.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.polyrag.core.InvalidInputException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TenantNamespaceTest {
    @Test
    void tenant_ids_and_knowledge_base_names_cannot_reach_another_namespace() {
        for (String bad : List.of("../etc", "a/b", "", "UPPER", "x".repeat(41), "a b", "ü")) {
            assertThatThrownBy(() -> Tenant.of(bad)).as(bad).isInstanceOf(InvalidInputException.class);
        }
        assertThatThrownBy(() -> KnowledgeBase.of(Tenant.of("acme"), "other/handbook"))
                .isInstanceOf(InvalidInputException.class);
        KnowledgeBase kb = KnowledgeBase.of(Tenant.of("acme"), "handbook");
        assertThat(kb.storageName()).isEqualTo("acme/handbook");
        assertThat(KnowledgeBase.ofStored("acme/handbook")).isEqualTo(kb);
        assertThat(KnowledgeBase.of(Tenant.of("acme"), null).storageName()).isEqualTo("acme/default");
        assertThat(KnowledgeBase.of("handbook").storageName()).isEqualTo("handbook");
        assertThat(Tenant.of("acme").owns("acme/handbook")).isTrue();
        assertThat(Tenant.of("acme").owns("acmecorp/handbook")).isFalse();
        assertThat(Tenant.LOCAL.owns("handbook")).isTrue();
        assertThat(Tenant.LOCAL.owns("acme/handbook")).isFalse();
    }

    @Test
    void a_tenants_entities_are_keyed_in_its_namespace_and_never_meet_another_tenants() {
        ChunkGraph g = new ChunkGraph(List.of(new Entity("marie curie", "Marie Curie", "person", List.of("curie"))),
                List.of(new Relation("Marie Curie", "person", "work_at", "AC/DC Institute", "org", "c1", "d1", 1,
                        Map.of())));
        ChunkGraph acme = g.inNamespace("acme/");
        assertThat(acme.entities()).extracting(Entity::id).containsExactly("acme/marie curie", "acme/ac dc institute");
        assertThat(acme.entities().getFirst().aliases()).containsExactly("acme/curie");
        assertThat(Entity.storedKey(acme.relations().getFirst().object())).isEqualTo("acme/ac dc institute");
        ChunkGraph local = g.inNamespace("");
        assertThat(local.entities()).extracting(Entity::id).containsExactly("marie curie", "ac dc institute");
        assertThat(Entity.storedKey("tcp ip")).isEqualTo("tcp ip");
        assertThat(Entity.key("acme/Marie Curie")).as("query text is never read as a namespace")
                .isEqualTo("acme marie curie");
        SearchScope scope = new SearchScope(Set.of("acme/a", "acme/b"));
        assertThat(scope.namespace()).isEqualTo("acme/");
        assertThat(scope.ownsName("acme/marie curie")).isTrue();
        assertThat(scope.ownsName("marie curie")).isFalse();
        assertThat(new SearchScope(Set.of("a")).ownsName("acme/marie curie")).isFalse();
    }
}
