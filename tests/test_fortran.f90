! The Fortran module (omp_ext) from gfortran/libgomp: return codes, and in
! each of several regions every thread runs on the PU omp_get_ht_pu() gives
! its number (sched_getcpu: exact when a thread is bound to one PU); and the
! module's generated constants (policies, errors, formats) equal the C values.
program test_fortran
  use, intrinsic :: iso_c_binding, only: c_int, c_char, c_null_char, c_ptr, c_associated
  use omp_lib
  use omp_ext
  implicit none
  interface
    function sched_getcpu() bind(C, name="sched_getcpu")
      import :: c_int
      integer(c_int) :: sched_getcpu
    end function sched_getcpu
    function c_policy_from_name(name, policy) bind(C, name="omp_ext_policy_from_name")
      import :: c_int, c_char
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_int), intent(out) :: policy
      integer(c_int) :: c_policy_from_name
    end function c_policy_from_name
    function c_format_from_name(name, format) bind(C, name="omp_ext_format_from_name")
      import :: c_int, c_char
      character(kind=c_char), dimension(*), intent(in) :: name
      integer(c_int), intent(out) :: format
      integer(c_int) :: c_format_from_name
    end function c_format_from_name
    function c_policy_name(policy) bind(C, name="omp_ext_policy_name")
      import :: c_int, c_ptr
      integer(c_int), value :: policy
      type(c_ptr) :: c_policy_name
    end function c_policy_name
    function c_format_name(format) bind(C, name="omp_ext_format_name")
      import :: c_int, c_ptr
      integer(c_int), value :: format
      type(c_ptr) :: c_format_name
    end function c_format_name
  end interface
  integer, parameter :: maxt = 64
  integer :: failures, r, t, nt, err
  integer(c_int) :: cpu(0:maxt - 1)
  integer(c_int) :: policies(3)

  failures = 0
  call check_constants()
  policies = [omp_ht_policy_spn, omp_ht_policy_speedup, omp_ht_policy_spread]
  do r = 1, 3
    call check(omp_set_ht_policy_num_threads(policies(r), 3) == omp_ext_success, "set policy")
    call check(omp_get_ht_policy() == policies(r), "omp_get_ht_policy")
    call check_regions()
  end do

  call check(omp_set_ht_policy(7_c_int) == omp_ext_err_policy, "invalid policy")
  call check(omp_set_ht_policy_num_threads(omp_ht_policy_spn, 0_c_int) == omp_ext_err_range, &
             "team size 0")
  err = omp_ext_success
  !$omp parallel num_threads(2)
  !$omp single
  err = omp_set_ht_policy(omp_ht_policy_os)
  !$omp end single
  !$omp end parallel
  call check(err == omp_ext_err_in_parallel, "inside a parallel region")
  call check(omp_get_ht_policy() == omp_ht_policy_spread, "policy unchanged")
  call check(omp_ext_strerror(omp_ext_err_policy) == "unknown placement policy", "strerror")
  call check(omp_set_ht_policy(omp_ht_policy_os) == omp_ext_success, "os")
  call check(omp_get_ht_pu(0_c_int) == omp_ext_err_unsupported, "os has no single PU")
  ! Per-region placement from Fortran: the generated constant is accepted.
  call check(omp_set_ht_policy(omp_ht_policy_auto) == omp_ext_success, "auto")
  call check(omp_get_ht_policy() == omp_ht_policy_auto, "omp_get_ht_policy: auto")

  if (failures > 0) then
    print '(i0, a)', failures, " check(s) failed"
    stop 1
  end if
  print '(a)', "test_fortran: all checks passed"

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(a, a)', "FAILED: ", what
    end if
  end subroutine check

  ! The generated constants against the C library's own tables.
  subroutine check_constants()
    call check_policy(omp_ht_policy_os, "os")
    call check_policy(omp_ht_policy_speedup, "speedup")
    call check_policy(omp_ht_policy_spn, "spn")
    call check_policy(omp_ht_policy_spread, "spread")
    call check_policy(omp_ht_policy_energy, "energy")
    call check(c_associated(c_policy_name(OMP_EXT_NPOLICIES - 1_c_int)), "OMP_EXT_NPOLICIES - 1")
    call check(.not. c_associated(c_policy_name(OMP_EXT_NPOLICIES)), "OMP_EXT_NPOLICIES")
    ! The run-time policy (no place order) is in the generated list too.
    call check_policy(omp_ht_policy_auto, "auto")
    call check(omp_ht_policy_auto == 256_c_int, "omp_ht_policy_auto = 0x100")
    call check(OMP_EXT_NPOLICIES == 5_c_int, "OMP_EXT_NPOLICIES = 5 (os .. energy)")
    call check(OMP_EXT_NPOLICIES_ALL == OMP_EXT_NPOLICIES + 1_c_int, "OMP_EXT_NPOLICIES_ALL")
    call check_format(omp_ext_format_omp, "omp")
    call check_format(omp_ext_format_gomp, "gomp")
    call check_format(omp_ext_format_kmp, "kmp")
    call check_format(omp_ext_format_list, "list")
    call check_format(omp_ext_format_json, "json")
    call check(c_associated(c_format_name(OMP_EXT_NFORMATS - 1_c_int)), "OMP_EXT_NFORMATS - 1")
    call check(.not. c_associated(c_format_name(OMP_EXT_NFORMATS)), "OMP_EXT_NFORMATS")
    call check_error(omp_ext_success, "success")
    call check_error(omp_ext_err_invalid, "invalid argument")
    call check_error(omp_ext_err_nomem, "out of memory")
    call check_error(omp_ext_err_topology, "the topology could not be read or is invalid")
    call check_error(omp_ext_err_range, "thread count out of range (1 .. allowed PUs)")
    call check_error(omp_ext_err_empty, "no PU is allowed")
    call check_error(omp_ext_err_policy, "unknown placement policy")
    call check_error(omp_ext_err_format, "unknown output format")
    call check_error(omp_ext_err_in_parallel, "not allowed inside a parallel region")
    call check_error(omp_ext_err_bind, "the operating system refused the binding")
    call check_error(omp_ext_err_runtime, "no usable OpenMP runtime found")
    call check_error(omp_ext_err_parse, "the text could not be parsed")
    call check_error(omp_ext_err_unsupported, "not supported on this system")
    call check_error(omp_ext_err_not_in_parallel, "only allowed inside a parallel region")
    call check_error(omp_ext_err_overflow, "the range's size (end - begin) overflows a long")
    call check_error(omp_ext_err_too_large, "the topology has more than 65536 PUs (omp_ext's limit)")
    call check_error(omp_ext_err_mismatch, "the team's threads passed different ranges")
    call check_error(omp_ext_err_in_construct, "a collective call inside a single, masked, " // &
                     "master or critical construct: call it from every thread, outside them")
  end subroutine check_constants

  subroutine check_policy(value, name)
    integer(c_int), intent(in) :: value
    character(len=*), intent(in) :: name
    integer(c_int) :: p
    p = -99
    call check(c_policy_from_name(name // c_null_char, p) == omp_ext_success, "policy " // name)
    call check(p == value, "policy constant " // name)
  end subroutine check_policy

  subroutine check_format(value, name)
    integer(c_int), intent(in) :: value
    character(len=*), intent(in) :: name
    integer(c_int) :: f
    f = -99
    call check(c_format_from_name(name // c_null_char, f) == omp_ext_success, "format " // name)
    call check(f == value, "format constant " // name)
  end subroutine check_format

  subroutine check_error(value, text)
    integer(c_int), intent(in) :: value
    character(len=*), intent(in) :: text
    call check(omp_ext_strerror(value) == text, "error constant: " // text)
  end subroutine check_error

  subroutine check_regions()
    integer :: k, me
    do k = 1, 3
      nt = 0
      cpu = -1
      !$omp parallel private(me)
      me = omp_get_thread_num()
      if (me == 0) nt = omp_get_num_threads()
      if (me < maxt) cpu(me) = sched_getcpu()
      !$omp end parallel
      call check(nt == 3, "team of 3")
      do t = 0, nt - 1
        call check(cpu(t) == omp_get_ht_pu(int(t, c_int)), "thread on its PU")
      end do
    end do
  end subroutine check_regions
end program test_fortran
