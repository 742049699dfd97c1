! The Fortran module (omp_ext) from gfortran/libgomp: return codes, and in
! each of several regions every thread runs on the PU omp_get_ht_pu() gives
! its number (sched_getcpu: exact when a thread is bound to one PU).
program test_fortran
  use, intrinsic :: iso_c_binding, only: c_int
  use omp_lib
  use omp_ext
  implicit none
  interface
    function sched_getcpu() bind(C, name="sched_getcpu")
      import :: c_int
      integer(c_int) :: sched_getcpu
    end function sched_getcpu
  end interface
  integer, parameter :: maxt = 64
  integer :: failures, r, t, nt, err
  integer(c_int) :: cpu(0:maxt - 1)
  integer(c_int) :: policies(3)

  failures = 0
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
