package dev.gpugen.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class or method that runs playbooks against debootstrap roots ({@link TestRoot},
 * {@link Converged}): the costliest tests. Tags {@value #TAG} and {@value RealToolsTest#TAG}
 * ({@code -Dgroups=chroot} runs only these); every root the test mounts is unmounted after it, also
 * when it fails.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@RealToolsTest
@Tag(ChrootTest.TAG)
@ExtendWith(TestRoot.Cleanup.class)
public @interface ChrootTest {
  /** The JUnit tag. */
  String TAG = "chroot";
}
