package dev.gpugen.spec.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.ConnectionMethod;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.Internet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The grammar binds into the records: every record component has its key, every key its place. */
class GrammarBindingTest {
  @Test
  void everyMappingOfTheGrammarAgreesWithItsRecord() {
    assertEquals(List.of(), RecordBinder.check(SpecShape.root()));
    assertEquals(List.of(), RecordBinder.check(SpecShape.CONNECTION));
  }

  @Test
  void theCheckFindsAComponentWithoutAKeyAndAKeyWithoutAComponent() {
    record Two(String a, Optional<String> b) {}
    Shape.Str text = SpecShape.POOL_NAME;
    Shape.Obj missing =
        new Shape.Obj(List.of(new Shape.Field("a", text, true, null, "A."))).into(Two.class);
    assertEquals(
        List.of("Two.b: no key binds into it and it is not derived"), RecordBinder.check(missing));
    Shape.Obj extra =
        new Shape.Obj(
                List.of(
                    new Shape.Field("a", text, true, null, "A."),
                    new Shape.Field("b", text, false, null, "B."),
                    new Shape.Field("c", text, false, null, "C.")))
            .into(Two.class);
    assertEquals(
        List.of("Two has no component c for its key or derivation"), RecordBinder.check(extra));
    Shape.Obj mistyped =
        new Shape.Obj(
                List.of(
                    new Shape.Field("a", text, false, null, "A."),
                    new Shape.Field("b", new Shape.Bool(), false, null, "B.")))
            .into(Two.class);
    List<String> problems = RecordBinder.check(mistyped);
    assertEquals(2, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("Two.a (key a): the key may be absent"), problems.get(0));
    assertTrue(
        problems.get(1).startsWith("Two.b (key b): true or false cannot be"), problems.get(1));
  }

  @Test
  void aKeywordEnumMustOfferExactlyTheGrammarsWords() {
    record Net(dev.gpugen.spec.Fabric fabric) {}
    Shape.Obj same =
        new Shape.Obj(
                List.of(
                    new Shape.Field(
                        "fabric",
                        new Shape.Enum(List.of("efa", "infiniband", "roce", "tcp")),
                        true,
                        null,
                        "F.")))
            .into(Net.class);
    assertEquals(List.of(), RecordBinder.check(same));
    Shape.Obj more =
        new Shape.Obj(
                List.of(
                    new Shape.Field(
                        "fabric",
                        new Shape.Enum(List.of("efa", "infiniband", "roce", "tcp", "nvlink")),
                        true,
                        null,
                        "F.")))
            .into(Net.class);
    List<String> problems = RecordBinder.check(more);
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("Net.fabric (key fabric): "), problems.get(0));
  }

  @Test
  void aSpecBindsWithItsDependentDefaults() {
    String yaml =
        """
        apiVersion: gpugen/v1
        kind: GpuCluster
        metadata: {name: atlas}
        cloud: {provider: aws, region: us-east-1}
        network: {vpcCidr: 10.42.0.0/16}
        pools:
          - {name: h100, instanceType: p5.48xlarge, count: 2}
        software: {driver: "580.95.05", cuda: "12.8"}
        gitops: {argocd: {repoURL: "https://git.example.com/infra.git"}}
        """;
    ClusterSpec spec =
        new SpecReader(type -> type.equals("p5.48xlarge"))
            .read(
                "spec.yaml",
                yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Optional.empty())
            .spec()
            .orElseThrow();
    assertEquals(Optional.of("us-east-1a"), spec.cloud().availabilityZone());
    assertEquals("ubuntu-22.04", spec.cloud().image());
    assertEquals(Optional.of("10.42.0.0/20"), spec.network().subnetCidr());
    assertEquals(Internet.NAT, spec.network().internet());
    assertEquals(Fabric.EFA, spec.network().fabric());
    assertEquals(Fabric.EFA, spec.pools().get(0).fabric());
    assertEquals(ConnectionMethod.SSM, spec.connection().method());
    assertEquals(
        "https://git.example.com/infra.git", spec.gitops().orElseThrow().argocd().repoUrl());
    assertEquals("roles-generated/atlas/argocd", spec.gitops().orElseThrow().argocd().path());
    assertEquals("12.8", spec.pools().get(0).software().cuda());
  }
}
