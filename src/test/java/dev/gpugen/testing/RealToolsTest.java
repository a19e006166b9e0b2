package dev.gpugen.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class or method that starts a real external program (ansible-playbook, ansible-lint,
 * terraform, hcl2json, node, python, pre-commit, bash, debootstrap/chroot). It carries the JUnit
 * tag {@value #TAG}: {@code ./mvnw -B test -Pfast} (the same as {@code -DexcludedGroups=tools})
 * leaves these out and needs no tool installed; {@code scripts/test} and CI run everything.
 *
 * <p>Only code under this annotation may start a process: {@link RealTools#start} fails any other
 * caller, so a forgotten tag is a test failure in the full suite, not a surprise in the fast one.
 * The costliest tools have a tag of their own on top ({@link ChrootTest}, {@link TerraformTest},
 * {@link LintTest}), enforced the same way, so {@code -Dgroups=chroot} (or terraform, lint) runs
 * exactly the tests that need them.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag(RealToolsTest.TAG)
@ExtendWith(RealToolsGuard.class)
public @interface RealToolsTest {
  /** The JUnit tag the fast suite excludes. */
  String TAG = "tools";
}
