package org.logz.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * What makes "every contract on every backend" and "every model in the contracts" hold without a list to keep by
 * hand: each contract of this package is bound in {@link BackendContracts}, which each backend extends once, and each
 * model type a kernel provider registers has a {@link ModelExample}.
 */
class ContractCoverageTest {
    @Test
    void everyContractIsBoundInBackendContracts() {
        Set<Class<?>> contracts = ReflectionSupport.findAllClassesInPackage(BackendTest.class.getPackageName(),
                        c -> BackendTest.class.isAssignableFrom(c) && c != BackendTest.class && c.getEnclosingClass() == null
                                && c.getPackageName().equals(BackendTest.class.getPackageName()), name -> true)
                .stream().collect(Collectors.toSet());
        Set<Class<?>> bound = Arrays.stream(BackendContracts.class.getDeclaredClasses()).map(Class::getSuperclass)
                .collect(Collectors.toSet());
        assertFalse(contracts.isEmpty(), "the contracts are found");
        assertEquals(contracts, bound, "one nested class of BackendContracts per contract");
        contracts.forEach(c -> assertTrue(Modifier.isAbstract(c.getModifiers()), c + " is bound, not run alone"));
    }

    @Test
    void everyRegisteredModelHasAnExample() {
        List<Object> examples = Examples.all();
        assertEquals(Examples.modelTypes().size(), examples.size(), "one example per model type");
        assertFalse(examples.isEmpty(), "the kernel providers are found");
    }
}
