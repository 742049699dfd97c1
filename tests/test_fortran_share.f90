! The capacity-weighted split from Fortran (gfortran/libgomp): the pure
! split, sigma, outside a region (a clear error code), and inside one: the
! shares of every thread cover the range once, contiguously, in thread
! order, and the weights are the same in every thread.
program test_fortran_share
  use, intrinsic :: iso_c_binding, only: c_int, c_long, c_double, c_ptr, c_null_ptr, &
                                         c_associated
  use omp_lib
  use omp_ext
  implicit none
  integer, parameter :: maxt = 64
  integer :: failures, t, nt
  integer(c_int) :: err(0:maxt - 1)
  integer(c_long) :: lo(0:maxt - 1), hi(0:maxt - 1), b(4), l, h
  real(c_double) :: w(3), tw(maxt, 0:maxt - 1), s
  type(omp_ext_tail_t) :: tail
  integer :: hits(0:999)
  integer(c_int) :: terr(0:maxt - 1)
  type(c_ptr) :: steal
  integer(c_int) :: serr(0:maxt - 1)
  integer :: round

  failures = 0
  w = [0.5_c_double, 0.5_c_double, 1.0_c_double]
  call check(omp_ext_share_split(0_c_long, 10_c_long, w, 3_c_int, b) == omp_ext_success, "split")
  call check(all(b == [0_c_long, 3_c_long, 5_c_long, 10_c_long]), "split bounds 0 3 5 10")
  w(3) = -1
  call check(omp_ext_share_split(0_c_long, 10_c_long, w, 3_c_int, b) == omp_ext_err_invalid, &
             "negative weight")
  call check(omp_ext_get_share_sigma(s) == omp_ext_success .and. abs(s - 0.3d0) < 1d-12, &
             "default sigma 0.3")
  call check(omp_ext_set_share_sigma(2.0_c_double) == omp_ext_err_invalid, "sigma 2")
  call check(omp_ext_share(0_c_long, 10_c_long, l, h) == omp_ext_err_not_in_parallel, &
             "outside a parallel region")
  call check(omp_ext_strerror(omp_ext_err_not_in_parallel) == &
             "only allowed inside a parallel region", "strerror")

  nt = 0
  err = -100
  !$omp parallel num_threads(3)
  !$omp single
  nt = omp_get_num_threads()
  !$omp end single
  err(omp_get_thread_num()) = omp_ext_team_weights(tw(:, omp_get_thread_num()), int(maxt, c_int))
  if (err(omp_get_thread_num()) == omp_ext_success) &
    err(omp_get_thread_num()) = omp_ext_share(-3_c_long, 1000_c_long, lo(omp_get_thread_num()), &
                                              hi(omp_get_thread_num()))
  !$omp end parallel
  call check(nt >= 1 .and. nt <= 3, "team size")
  do t = 0, nt - 1
    call check(err(t) == omp_ext_success, "no error in the team")
    call check(all(abs(tw(1:nt, t) - tw(1:nt, 0)) <= 0), "same weights in every thread")
    call check(all(tw(1:nt, t) > 0 .and. tw(1:nt, t) <= 1), "weights in (0, 1]")
  end do
  do t = 1, nt - 1
    call check(lo(t) == hi(t - 1), "contiguous")
  end do
  call check(lo(0) == -3 .and. hi(nt - 1) == 1000, "exact cover")

  ! The dynamic tail: head by capacity, tail by chunks; every iteration once.
  call check(omp_ext_tail_init(tail, 0_c_long, 1000_c_long, 0.25_c_double, 7_c_long) == &
             omp_ext_success, "tail init")
  call check(tail%cut == 750 .and. tail%end == 1000 .and. tail%chunk == 7, "tail cut 750")
  call check(omp_ext_tail_init(tail, 0_c_long, 1000_c_long, 1.5_c_double, 7_c_long) == &
             omp_ext_err_invalid, "tail fraction 1.5")
  call check(omp_ext_tail_init(tail, 0_c_long, 1000_c_long, 0.25_c_double, 7_c_long) == &
             omp_ext_success, "tail init again")
  hits = 0
  terr = 0
  !$omp parallel num_threads(3) private(l, h)
  terr(omp_get_thread_num()) = omp_ext_share(tail%begin, tail%cut, l, h)
  if (terr(omp_get_thread_num()) == omp_ext_success) then
    call hit(l, h)
    do while (omp_ext_tail_next(tail, l, h) == 1)
      call hit(l, h)
    end do
  end if
  !$omp end parallel
  call check(all(terr == 0), "tail: no error in the team")
  call check(all(hits == 1), "tail: every iteration exactly once")
  call check(omp_ext_tail_next(tail, l, h) == 0, "tail used up")

  ! Work stealing: errors, exact chunks from one caller, then a team.
  steal = c_null_ptr
  call check(omp_ext_steal_create(0_c_int, 4_c_long, steal) == omp_ext_err_invalid, &
             "steal: 0 slots")
  call check(omp_ext_steal_create(4_c_int, 0_c_long, steal) == omp_ext_err_invalid, &
             "steal: chunk 0")
  call check(omp_ext_steal_create(-1_c_int, 4_c_long, steal) == omp_ext_err_invalid, &
             "steal: -1 slots")
  call check(.not. c_associated(steal), "steal: unchanged on error")
  call check(omp_ext_steal_create(4_c_int, 4_c_long, steal) == omp_ext_success, "steal create")
  call check(omp_ext_steal_init(steal, 0_c_long, 10_c_long) == omp_ext_err_not_in_parallel, &
             "steal init outside a region")
  w = [1.0_c_double, 3.0_c_double, 0.0_c_double]
  call check(omp_ext_steal_init_weights(steal, 10_c_long, 0_c_long, w, 2_c_int) == &
             omp_ext_err_invalid, "steal: begin > end")
  call check(omp_ext_steal_init_weights(steal, 0_c_long, 8_c_long, w, 2_c_int) == &
             omp_ext_success, "steal init_weights")
  ! shares [0,2) [2,8); thread 0 takes its own, then steals 4 of slot 1's 6
  call check(omp_ext_steal_next(steal, 0_c_int, l, h) == 1 .and. l == 0 .and. h == 2, &
             "steal: own chunk [0,2)")
  call check(omp_ext_steal_next(steal, 0_c_int, l, h) == 1 .and. l == 4 .and. h == 8, &
             "steal: stolen back half [4,8)")
  call check(omp_ext_steal_next(steal, 1_c_int, l, h) == 1 .and. l == 2 .and. h == 4, &
             "steal: owner's front [2,4)")
  call check(omp_ext_steal_next(steal, 1_c_int, l, h) == 0, "steal: done")
  call check(omp_ext_steal_next(steal, 4_c_int, l, h) == omp_ext_err_invalid, "steal: slot 4")
  do round = 1, 2
    hits = 0
    serr = 0
    !$omp parallel num_threads(3) private(l, h)
    serr(omp_get_thread_num()) = omp_ext_steal_init(steal, 0_c_long, 1000_c_long)
    if (serr(omp_get_thread_num()) == omp_ext_success) then
      do while (omp_ext_steal_next(steal, int(omp_get_thread_num(), c_int), l, h) == 1)
        call hit(l, h)
      end do
    end if
    !$omp end parallel
    call check(all(serr == 0), "steal: no error in the team")
    call check(all(hits == 1), "steal: every iteration exactly once")
  end do
  call omp_ext_steal_destroy(steal)

  if (failures > 0) then
    print '(i0, a)', failures, " check(s) failed"
    stop 1
  end if
  print '(a)', "test_fortran_share: all checks passed"

contains

  ! Count one run of each iteration of [l, h) (any thread of the team).
  subroutine hit(l, h)
    integer(c_long), intent(in) :: l, h
    integer(c_long) :: k
    do k = l, h - 1
      !$omp atomic
      hits(k) = hits(k) + 1
    end do
  end subroutine hit

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(a, a)', "FAILED: ", what
    end if
  end subroutine check
end program test_fortran_share
